from session_expiry_timer_b_app import SESSIONS, handle_request, schedule_expiry


def test_expire_sessions():
    schedule_expiry(0.06)
    assert SESSIONS == {}


def test_new_session_survives_request():
    SESSIONS["s42"] = "ada"
    user, size = handle_request("s42")
    assert size > 0
    assert SESSIONS.get("s42") == "ada"
