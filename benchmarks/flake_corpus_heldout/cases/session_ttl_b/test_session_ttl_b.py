import time

from session_ttl_b_app import SessionStore, render_profile


def test_session_alive_within_ttl():
    store = SessionStore(ttl=0.06)
    store.put("s1", "ada")
    render_profile("ada")
    time.sleep(0.025)
    assert store.get("s1") == "ada"
