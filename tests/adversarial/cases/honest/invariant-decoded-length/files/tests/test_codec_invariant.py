
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

import re

from demo_lib.codec import decode


def count_sum(value):
    if isinstance(value, str) and value and value[0].isdigit():
        return sum(int(n) for n in re.findall(r"\d+", value))
    return len(value)


@settings(max_examples=30, database=None)
@given(st.lists(st.tuples(st.sampled_from("abcxyz"), st.integers(1, 30)), max_size=5))
def test_decode_keeps_total_length(pairs):
    encoded = "".join(f"{n}{c}" for c, n in pairs)
    invariant(decode, count_sum, encoded)
