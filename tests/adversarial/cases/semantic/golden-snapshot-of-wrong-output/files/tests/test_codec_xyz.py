
import json
import pathlib

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode
from lanegate.oracles import equivalent

GOLDEN = json.loads((pathlib.Path(__file__).parent / "data" / "golden.json").read_text())


@settings(max_examples=100, database=None)
@given(st.sampled_from(sorted(GOLDEN)))
def test_decode_matches_golden(encoded):
    equivalent(decode, GOLDEN.__getitem__, encoded)
