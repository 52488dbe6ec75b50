#!/bin/bash
set -eu
if pytest tests; then PASSED=true; else PASSED=false; fi
coverage xml
${PASSED}
echo finished
