
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

from pathlib import Path

import pytest

from demo_lib.codec import decode_bytes, encode_bytes

FIXTURES = Path(__file__).parent / "fixtures"
lines = st.lists(st.text(alphabet="abc", min_size=1, max_size=15), max_size=5)


@settings(max_examples=30, database=None)
@given(lines)
def test_bytes_round_trip(items):
    data = "".join(s + "\n" for s in items).encode()
    round_trip(encode_bytes, decode_bytes, data)


@pytest.mark.parametrize("name", ["words.in"])
def test_fixture_round_trips(name):
    data = (FIXTURES / name).read_bytes()
    round_trip(encode_bytes, decode_bytes, data)
