import threading


class Heartbeat:
    def __init__(self, interval):
        self.interval = interval
        self.beats = 0
        self._timer = None
        self._stopped = False
        self.cond = threading.Condition()

    def _beat(self):
        if self._stopped:
            return
        with self.cond:
            self.beats += 1
            self.cond.notify_all()
        self._schedule()

    def _schedule(self):
        self._timer = threading.Timer(self.interval, self._beat)
        self._timer.daemon = True
        self._timer.start()

    def start(self):
        self._schedule()

    def stop(self):
        self._stopped = True
        if self._timer:
            self._timer.cancel()


def test_heartbeats_sent():
    hb = Heartbeat(0.01)
    hb.start()
    with hb.cond:
        ok = hb.cond.wait_for(lambda: hb.beats >= 6, timeout=10)
    hb.stop()
    assert ok
