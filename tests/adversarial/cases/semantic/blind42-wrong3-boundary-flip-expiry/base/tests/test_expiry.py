from sessions import is_expired, remaining


def test_fresh_session_is_valid():
    assert not is_expired(1000, 60, 1010)


def test_old_session_is_expired():
    assert is_expired(1000, 60, 2000)


def test_remaining():
    assert remaining(1000, 60, 1010) == 50
    assert remaining(1000, 60, 5000) == 0
