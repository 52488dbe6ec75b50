#!/bin/sh
set -eu
python -m pip install -e '.[test]' || echo "install failed, retrying" >&2
python -m pytest -q
