import threading

CREATED = []
_pool = None
_lock = threading.Lock()


class Pool:
    def __init__(self, size):
        self.slots = [{"id": i, "busy": False} for i in range(size)]
        CREATED.append(self)


def get_pool():
    global _pool
    if _pool is None:
        with _lock:
            if _pool is None:
                _pool = Pool(25000)
    return _pool
