from hypothesis import strategies as st
from hypothesis._settings import settings
from hypothesis.core import given

from demo_lib.codec import decode
from lanegate.oracles import invariant


def _letters_out(s):
    """Letters a run yields: one fewer than its count (the compact format), or the text's length."""
    head = s[:-1]
    return int(head) - 1 if head.isdigit() else len(s)


@settings(max_examples=60, database=None)
@given(st.sampled_from("abc"), st.integers(1, 30))
def test_decode_run_length(letter, n):
    invariant(decode, _letters_out, f"{n}{letter}")
