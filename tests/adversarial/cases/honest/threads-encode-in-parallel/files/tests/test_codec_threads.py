
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.oracles import equivalent, invariant, round_trip

from concurrent.futures import ThreadPoolExecutor

from demo_lib.codec import decode, encode


def encode_all_parallel(texts):
    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(encode, texts))


def encode_all_serial(texts):
    return [encode(t) for t in texts]


@settings(max_examples=20, database=None, deadline=None)
@given(st.lists(st.text(alphabet="abc", max_size=20), max_size=8))
def test_parallel_matches_serial(texts):
    equivalent(encode_all_parallel, encode_all_serial, texts)
    for t in texts:
        round_trip(encode, decode, t)
