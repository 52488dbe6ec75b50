from cache_ttl_jitter_b_cache import Cache


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_entry_survives_most_of_its_ttl():
    clock = FakeClock()
    cache = Cache(clock)
    cache.set("/api/prices", {"EUR": 1.0})
    clock.now += 290
    assert cache.get("/api/prices") == {"EUR": 1.0}


def test_entry_expires_after_max_ttl():
    clock = FakeClock()
    cache = Cache(clock)
    cache.set("/api/prices", {"EUR": 1.0})
    clock.now += 331
    assert cache.get("/api/prices") is None
