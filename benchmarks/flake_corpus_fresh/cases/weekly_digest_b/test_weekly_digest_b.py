from weekly_digest_b_digest import upcoming_days


def test_digest_covers_next_seven_days():
    days = upcoming_days()
    assert len(days) == 7
