
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

from itertools import groupby

from demo_lib.codec import max_run


def model_max_run(text):
    return max((len(list(g)) for _, g in groupby(text)), default=0)


@settings(max_examples=80, database=None)
@given(st.text(alphabet="ab", max_size=25))
def test_max_run_matches_model(text):
    equivalent(max_run, model_max_run, text)
