import threading


class ManualTimer:
    """Timer driven by the test instead of the wall clock."""

    pending = []

    def __init__(self, delay, fn):
        self.delay, self.fn, self.cancelled = delay, fn, False

    def start(self):
        ManualTimer.pending.append(self)

    def cancel(self):
        self.cancelled = True

    @classmethod
    def fire_all(cls):
        timers, cls.pending = cls.pending, []
        for t in timers:
            if not t.cancelled:
                t.fn()


class Debouncer:
    def __init__(self, delay, fn, timer_factory=threading.Timer):
        self.delay, self.fn, self.timer_factory = delay, fn, timer_factory
        self.timer = None

    def trigger(self):
        if self.timer is not None:
            self.timer.cancel()
        self.timer = self.timer_factory(self.delay, self.fn)
        self.timer.start()
