import threading
import time


class Heartbeat:
    def __init__(self, interval):
        self.interval = interval
        self.beats = 0
        self._timer = None
        self._stopped = False

    def _beat(self):
        if self._stopped:
            return
        self.beats += 1
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
    time.sleep(0.07)
    hb.stop()
    assert hb.beats >= 6
