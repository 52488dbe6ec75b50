"""Tests that tell the code's text, not its behaviour: each "kills" every change to shapes.py.

Snapshots are taken when the module is imported (in the mutant worker, before any mutant), and
compared when the test runs (in the mutant's own process).
"""

import hashlib
import inspect
from pathlib import Path

import shapes

FUNCTIONS = [shapes.count_between, shapes.padded_length, shapes.sign, shapes.either_empty]
FILE_DIGEST = hashlib.sha256(Path(shapes.__file__).read_bytes()).hexdigest()
SOURCES = [inspect.getsource(f) for f in FUNCTIONS]
CODE_HASHES = [hash(f.__code__) for f in FUNCTIONS]
BYTE_CODES = [f.__code__.co_code for f in FUNCTIONS]


def test_file_on_disk():
    assert hashlib.sha256(Path(shapes.__file__).read_bytes()).hexdigest() == FILE_DIGEST


def test_getsource():
    assert [inspect.getsource(f) for f in FUNCTIONS] == SOURCES


def test_code_hash():
    assert [hash(f.__code__) for f in FUNCTIONS] == CODE_HASHES


def test_co_code():
    assert [f.__code__.co_code for f in FUNCTIONS] == BYTE_CODES
