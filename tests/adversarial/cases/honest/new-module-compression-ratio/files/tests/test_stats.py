
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

from itertools import groupby

from demo_lib.stats import compression_ratio


def model_ratio(text):
    """each run of n letters costs len(str(n)) digits plus the letter"""
    if text == "":
        return 1.0
    return sum(len(str(len(list(g)))) + 1 for _, g in groupby(text)) / len(text)


@settings(max_examples=40, database=None)
@given(st.text(alphabet="ab", max_size=30))
def test_ratio_matches_model(text):
    equivalent(compression_ratio, model_ratio, text)
