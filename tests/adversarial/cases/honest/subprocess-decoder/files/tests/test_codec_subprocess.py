
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

import subprocess
import sys

import pytest

from demo_lib.codec import decode, encode


def decode_in_child(encoded):
    out = subprocess.run(
        [sys.executable, "-c",
         "import sys; from demo_lib.codec import decode; sys.stdout.write(decode(sys.stdin.read()))"],
        input=encoded, capture_output=True, text=True, timeout=60, check=True)
    return out.stdout


@pytest.mark.parametrize("text", ["", "a", "aaab", "abcabc", "z" * 25])
def test_child_decodes_like_parent(text):
    equivalent(decode_in_child, decode, encode(text))
