import threading
import time


class AuditLog:
    def __init__(self, path, interval=0.02):
        self._fh = open(path, "a", buffering=1 << 16)
        self._lock = threading.Lock()
        self._pending = []
        self.interval = interval
        threading.Thread(target=self._flusher, daemon=True).start()

    def write(self, event):
        with self._lock:
            self._pending.append(event)

    def flush(self):
        with self._lock:
            batch, self._pending = self._pending, []
        text = "".join(f"{e}|{'x' * 50}\n" for e in batch for _ in range(3000))
        self._fh.write(text)
        self._fh.flush()

    def _flusher(self):
        while True:
            time.sleep(self.interval)
            self.flush()
