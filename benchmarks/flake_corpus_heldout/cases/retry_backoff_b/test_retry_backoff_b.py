from retry_backoff_b_app import backoff_delays


def test_backoff_delays_increase():
    delays = backoff_delays(4)
    assert all(a < b for a, b in zip(delays, delays[1:]))
    assert delays[-1] <= 12.0
