from rate_limit_window_a_limiter import RateLimiter, SteppingClock, handle_request


def test_sixth_request_in_a_second_is_rejected():
    limiter = RateLimiter(limit=5, clock=SteppingClock(start=1_700_000_000.95, step=0.012))
    codes = [handle_request(limiter, {"n": i}) for i in range(6)]
    assert codes == [200, 200, 200, 200, 200, 429]
