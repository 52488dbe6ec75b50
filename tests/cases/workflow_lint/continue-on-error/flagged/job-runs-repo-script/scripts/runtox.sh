#!/bin/sh
set -e
tox -e "$1"
