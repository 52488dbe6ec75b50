import queue
import threading
import zlib


class Worker:
    def __init__(self):
        self.jobs = queue.Queue()
        self.done = {}
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self):
        while True:
            name, data = self.jobs.get()
            blob = data
            for _ in range(28):
                blob = zlib.compress(blob, 6)[:20000] + data
            self.done[name] = len(blob)
            self.jobs.task_done()

    def submit(self, name, data):
        self.jobs.put((name, data))
