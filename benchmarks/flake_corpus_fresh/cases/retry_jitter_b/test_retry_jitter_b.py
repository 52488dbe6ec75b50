from retry_jitter_b_backoff import delays


def test_total_backoff_within_budget():
    schedule = delays(5)
    assert len(schedule) == 5
    assert sum(schedule) <= 5.3
