import json
import threading

_client = None
_lock = threading.Lock()
CREATED = []
CONFIG = json.dumps({"endpoint": "http://localhost", "keys": list(range(9000))})


class Client:
    def __init__(self, config_json):
        self.config = json.loads(config_json)
        self.index = {k: f"key-{k:05d}" for k in self.config["keys"]}
        CREATED.append(self)


def get_client():
    global _client
    if _client is None:
        with _lock:
            if _client is None:
                _client = Client(CONFIG)
    return _client


def test_client_created_once():
    barrier = threading.Barrier(4)
    results = []

    def worker():
        barrier.wait()
        results.append(get_client())

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(CREATED) == 1
    assert all(r is results[0] for r in results)
