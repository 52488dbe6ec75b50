
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip
from demo_lib.codec import decode, encode



def reference_encode(text):
    out = []
    for ch in text:
        if out and out[-1][1] == ch:
            out[-1][0] += 1
        else:
            out.append([1, ch])
    return "".join(f"{n}{c}" for n, c in out)



@settings(max_examples=60, database=None)
@given(st.text(alphabet="abc", max_size=30))
def test_encode_matches_reference(text):
    equivalent(encode, reference_encode, text)


@settings(max_examples=30, database=None)
@given(st.lists(st.tuples(st.sampled_from("abcxyz"), st.integers(1, 30)), max_size=5))
def test_round_trip_long_runs(pairs):
    round_trip(encode, decode, "".join(c * n for c, n in pairs))
