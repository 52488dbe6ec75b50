from session_ttl_a_app import SessionStore, render_profile


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_session_alive_within_ttl():
    clock = FakeClock()
    store = SessionStore(ttl=0.06, clock=clock)
    store.put("s1", "ada")
    render_profile("ada")
    clock.now += 0.025
    assert store.get("s1") == "ada"
    clock.now += 0.05
    assert store.get("s1") is None
