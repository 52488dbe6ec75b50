import pytest
from hypothesis import given, settings, strategies as st

from lanegate.oracles import equivalent, monotonic
from sessions import is_expired, remaining


@settings(deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 86400), st.integers(-3, 3))
def test_expired_exactly_when_nothing_remains(issued_at, ttl, delta):
    now = issued_at + ttl + delta
    equivalent(is_expired, lambda i, t, n: remaining(i, t, n) == 0, issued_at, ttl, now)
    monotonic(lambda n: is_expired(issued_at, ttl, n), now, now + 1)


@pytest.mark.parametrize("now, expired", [(1059, False), (1060, True), (1061, True)])
def test_expires_at_the_last_second(now, expired):
    assert equivalent(is_expired, lambda i, t, n: remaining(i, t, n) == 0, 1000, 60, now) is expired
