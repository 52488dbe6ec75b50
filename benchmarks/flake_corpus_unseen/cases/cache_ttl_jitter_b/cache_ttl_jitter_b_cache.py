"""Response cache with jittered TTLs (avoids a thundering herd when many keys expire together)."""
import random


class Cache:
    def __init__(self, clock, ttl=300.0, jitter=0.10, rng=random):
        self.clock, self.ttl, self.jitter, self.rng = clock, ttl, jitter, rng
        self._data = {}

    def set(self, key, value):
        ttl = self.ttl * self.rng.uniform(1 - self.jitter, 1 + self.jitter)
        self._data[key] = (value, self.clock() + ttl)

    def get(self, key):
        value, expires = self._data.get(key, (None, 0.0))
        return value if self.clock() < expires else None
