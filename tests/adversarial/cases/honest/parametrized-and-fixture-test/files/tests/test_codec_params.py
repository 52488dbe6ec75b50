
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

import random

import pytest
from hypothesis import example

from demo_lib.codec import decode, encode


@pytest.fixture
def rng():
    return random.Random(1234)


@pytest.mark.parametrize("letters", ["ab", "xyz", "q"])
def test_random_words_round_trip(rng, letters):
    for _ in range(50):
        text = "".join(rng.choice(letters) * rng.randint(1, 15) for _ in range(rng.randint(0, 4)))
        round_trip(encode, decode, text)


@settings(max_examples=20, database=None)
@given(st.text(alphabet="mn", max_size=20))
@example("m" * 11)
def test_round_trip_with_example(text):
    round_trip(encode, decode, text)
