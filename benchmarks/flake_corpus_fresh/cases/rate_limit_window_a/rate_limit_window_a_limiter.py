import collections
import time


class RateLimiter:
    def __init__(self, limit, clock=time.time):
        self.limit = limit
        self.clock = clock
        self.window = None
        self.count = 0
        self.recent = collections.deque()

    def allow(self):
        now = self.clock()
        while self.recent and now - self.recent[0] >= 1.0:
            self.recent.popleft()
        if len(self.recent) >= self.limit:
            return False
        self.recent.append(now)
        return True


class SteppingClock:
    """Deterministic clock for tests: every reading advances by `step` seconds."""

    def __init__(self, start, step):
        self.now, self.step = start, step

    def __call__(self):
        self.now += self.step
        return self.now


def handle_request(limiter, payload):
    if not limiter.allow():
        return 429
    time.sleep(0.012)  # render the response
    return 200
