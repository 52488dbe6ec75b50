"""A reference that restates the implementation is no oracle; an independent one is."""

from __future__ import annotations

from lanegate.lanes.property.restatement import restatements, similarity

IMPL = b'''
def decode(encoded):
    """The inverse of encode."""
    out = []
    count = ""
    for char in encoded:
        if char.isdigit():
            count += char
        else:
            out.append(char * int(count))
            count = ""
    return "".join(out)
'''
RESTATED = """
from lanegate.oracles import equivalent
from lib.codec import decode

def reference(text):
    parts = []
    digits = ""
    for c in text:
        if c.isdigit():
            digits += c
        else:
            parts.append(c * int(digits))
            digits = ""
    return "".join(parts)

def test_decode(s):
    equivalent(decode, reference, s)
"""
INDEPENDENT = """
import re
from lanegate.oracles import equivalent
from lib import codec

def naive(text):
    return "".join(ch * int(n) for n, ch in re.findall(r"(\\d+)(\\D)", text))

def test_decode(s):
    equivalent(codec.decode, naive, s)
"""


def _read(path: str) -> bytes | None:
    return IMPL if path == "src/lib/codec.py" else None


def test_a_reference_written_again_with_new_names_is_found() -> None:
    (found,) = restatements(RESTATED, _read, ("src",))
    assert found.test == "test_decode"
    assert "lib.codec.decode" in found.reason and "restates" in found.reason


def test_an_independent_reference_is_an_oracle() -> None:
    assert restatements(INDEPENDENT, _read, ("src",)) == []


def test_without_the_implementation_nothing_is_claimed() -> None:
    assert restatements(RESTATED, lambda path: None, ("src",)) == []


def test_similarity_ignores_names_and_docstrings() -> None:
    import ast

    a = ast.parse(IMPL).body[0]
    b = next(n for n in ast.parse(RESTATED).body if getattr(n, "name", "") == "reference")
    c = next(n for n in ast.parse(INDEPENDENT).body if getattr(n, "name", "") == "naive")
    assert similarity(a, b) > 0.95  # type: ignore[arg-type]
    assert similarity(a, c) < 0.6  # type: ignore[arg-type]


def test_a_lookup_table_is_a_snapshot_not_an_oracle() -> None:
    source = (
        "import json\nfrom lanegate.oracles import equivalent\nfrom lib.codec import decode\n"
        "GOLDEN = json.loads(open('golden.json').read())\n\n"
        "def test_getitem(s):\n    equivalent(decode, GOLDEN.__getitem__, s)\n\n"
        "def test_lambda(s):\n    equivalent(lambda x: GOLDEN[x], decode, s)\n"
    )
    source += (
        "\ndef test_slice(v):\n    equivalent(lambda v: decode(v)[-1:], lambda v: v[-1:], v)\n"
    )
    found = restatements(source, _read, ("src",))
    assert [f.test for f in found] == ["test_getitem", "test_lambda"]
    assert all("snapshot" in f.reason for f in found)
