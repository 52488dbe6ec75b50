#!/bin/bash
set -euo pipefail
pytest tests/unit
pytest tests/integration
