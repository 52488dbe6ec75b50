from hypothesis import given, strategies as st

from lanegate.oracles import round_trip as rt

from mylib import decode, encode


@given(st.binary())
def test_codec(data):
    rt(encode, decode, data)
