import gc
import weakref

_sessions = weakref.WeakValueDictionary()


class Session:
    def __init__(self, sid):
        self.sid = sid
        self.on_close = self.close
        _sessions[sid] = self

    def close(self):
        self.closed = True


def test_sessions_registered():
    sessions = [Session(f"s{i}") for i in range(40)]
    assert all(f"s{i}" in _sessions for i in range(40))
    assert len(sessions) == 40


def test_closed_session_evicted():
    s = Session("abc")
    s.on_close()
    del s
    audit = [{"event": "closed", "n": i} for i in range(420)]
    assert len(audit) == 420
    gc.collect()
    assert "abc" not in _sessions
