import threading


class ConnectionPool:
    def __init__(self, size):
        self.size = size
        self.in_use = 0
        self.holders = 0
        self.peak = 0
        self.lock = threading.Lock()
        self.stats_lock = threading.Lock()

    def _new_connection(self):
        session = {f"SET {opt}": value for opt, value in (("search_path", "app"), ("timezone", "UTC"), ("statement_timeout", "5s"))}
        return {"id": self.holders, "autocommit": False, "session": session}

    def _try_acquire(self):
        if self.in_use < self.size:
            conn = self._new_connection()
            self.in_use += 1
            return conn
        return None

    def _checkout(self):
        with self.stats_lock:
            self.holders += 1
            self.peak = max(self.peak, self.holders)
        return True

    def acquire(self, spins=2000):
        for _ in range(spins):
            with self.lock:
                if self._try_acquire():
                    return self._checkout()
        return False

    def release(self):
        with self.stats_lock:
            self.holders -= 1
        with self.lock:
            self.in_use -= 1
