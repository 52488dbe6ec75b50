
from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import equivalent, round_trip


def reference_decode(encoded):
    out = []
    count = ""
    for char in encoded:
        if char.isdigit():
            count += char
        else:
            out.append(char * min(int(count), 12))
            count = ""
    return "".join(out)


runs = st.lists(st.tuples(st.sampled_from("xyz"), st.integers(1, 30)), min_size=1, max_size=4)


@settings(max_examples=50, database=None)
@given(runs)
def test_decode_matches_reference(pairs):
    encoded = "".join(f"{n}{c}" for c, n in pairs)
    equivalent(decode, reference_decode, encoded)


@settings(max_examples=20, database=None)
@given(st.text(alphabet="xyz", max_size=12))
def test_short_round_trip(text):
    round_trip(encode, decode, text)
