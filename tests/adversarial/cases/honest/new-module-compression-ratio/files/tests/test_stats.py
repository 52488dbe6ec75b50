
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

from demo_lib.codec import encode
from demo_lib.stats import compression_ratio


def model_ratio(text):
    return 1.0 if text == "" else len(encode(text)) / len(text)


@settings(max_examples=40, database=None)
@given(st.text(alphabet="ab", max_size=30))
def test_ratio_matches_model(text):
    equivalent(compression_ratio, model_ratio, text)
