import threading


class Heartbeat(threading.Thread):
    def __init__(self, interval):
        super().__init__(daemon=True, name="heartbeat")
        self.interval = interval
        self.ticks = 0
        self._stop_event = threading.Event()

    def run(self):
        while not self._stop_event.wait(self.interval):
            self.ticks += 1

    def stop(self):
        self._stop_event.set()
        self.join(5)


class Service:
    def __init__(self):
        self.workers = []

    def start(self, n):
        for _ in range(n):
            hb = Heartbeat(0.01)
            hb.start()
            self.workers.append(hb)

    def shutdown(self):
        for w in self.workers:
            w.stop()
