import threading


class HitCounter:
    def __init__(self):
        self.hits = 0
        self.paths = {}
        self._lock = threading.Lock()

    def record(self, path):
        with self._lock:
            current = self.hits
            self.paths[path] = self.paths.get(path, 0) + 1
            self.hits = current + 1


def test_concurrent_hits():
    counter = HitCounter()

    def worker(n):
        for i in range(n):
            counter.record(f"/page/{i % 7}")

    threads = [threading.Thread(target=worker, args=(20000,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counter.hits == 80000
