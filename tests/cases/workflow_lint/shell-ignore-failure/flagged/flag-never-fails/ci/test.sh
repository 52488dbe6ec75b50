#!/bin/bash
if pytest tests; then PASSED=true; else PASSED=false; fi
$PASSED
echo finished
