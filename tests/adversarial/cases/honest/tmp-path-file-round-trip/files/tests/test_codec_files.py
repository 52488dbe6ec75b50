
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

from demo_lib.codec import decode, encode


@settings(max_examples=20, database=None)
@given(st.lists(st.tuples(st.sampled_from("abcxyz"), st.integers(1, 30)), max_size=5))
def test_file_round_trip(tmp_path_factory, pairs):
    text = "".join(c * n for c, n in pairs)
    f = tmp_path_factory.mktemp("enc") / "enc.txt"
    f.write_text(encode(text))
    round_trip(encode, decode, text)
    equivalent(decode, lambda e: text, f.read_text())
