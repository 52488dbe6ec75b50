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
        window = int(now)
        if window != self.window:
            self.window, self.count = window, 0
        if self.count >= self.limit:
            return False
        self.count += 1
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
