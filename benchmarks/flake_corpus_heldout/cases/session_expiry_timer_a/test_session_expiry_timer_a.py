import pytest

from session_expiry_timer_a_app import SESSIONS, handle_request, schedule_expiry


@pytest.fixture
def expiry():
    timers = []
    yield lambda d: timers.append(schedule_expiry(d))
    for t in timers:
        t.cancel()


def test_expire_sessions(expiry):
    expiry(0.06)
    assert SESSIONS == {}


def test_new_session_survives_request():
    SESSIONS["s42"] = "ada"
    user, size = handle_request("s42")
    assert size > 0
    assert SESSIONS.get("s42") == "ada"
