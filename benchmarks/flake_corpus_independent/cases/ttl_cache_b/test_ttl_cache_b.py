import time


class TTLCache:
    def __init__(self, ttl, clock=time.monotonic):
        self.ttl, self.clock, self._d = ttl, clock, {}

    def set(self, key, value):
        self._d[key] = (value, self.clock() + self.ttl)

    def get(self, key):
        value, expires = self._d.get(key, (None, 0.0))
        if self.clock() >= expires:
            self._d.pop(key, None)
            return None
        return value


def render_profile(profile):
    rows = []
    for i in range(250000):
        rows.append(f"<td>{profile['name']}:{i}</td>")
    return "".join(rows)


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_value_cached_within_ttl():
    clock = FakeClock()
    cache = TTLCache(ttl=0.1, clock=clock)
    profile = {"name": "ada", "id": 1}
    cache.set("user:1", profile)
    html = render_profile(profile)
    clock.now += 0.05
    assert "ada" in html
    assert cache.get("user:1") == profile
    clock.now += 0.06
    assert cache.get("user:1") is None
