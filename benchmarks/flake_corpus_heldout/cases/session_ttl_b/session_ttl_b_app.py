import time


class SessionStore:
    def __init__(self, ttl, clock=time.monotonic):
        self.ttl = ttl
        self.clock = clock
        self._data = {}

    def put(self, sid, user):
        self._data[sid] = (user, self.clock() + self.ttl)

    def get(self, sid):
        user, expires = self._data.get(sid, (None, 0))
        return user if self.clock() < expires else None


def render_profile(user):
    return "".join(f"<li>{user}-{i}</li>" for i in range(60000))
