from hypothesis import given, settings, strategies as st

from lanegate.oracles import monotonic
from sessions import is_expired

times = st.integers(0, 2**31)


@settings(deadline=None)
@given(times, st.integers(1, 86400), times, times)
def test_once_expired_stays_expired(issued_at, ttl, t1, t2):
    monotonic(lambda now: is_expired(issued_at, ttl, now), t1, t2)
