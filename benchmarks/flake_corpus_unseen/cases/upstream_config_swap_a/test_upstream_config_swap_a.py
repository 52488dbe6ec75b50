import json
import threading
import time

from upstream_config_swap_a_upstream import UpstreamConfig

A = ("10.0.0.5", 8080)
B = ("10.0.0.9", 9090)


def test_readers_never_see_torn_address(tmp_path):
    services = tmp_path / "services"
    services.write_text("http 8080\napi 9090\n")
    files = []
    for i, (host, port) in enumerate([A, B]):
        f = tmp_path / f"upstream{i}.json"
        f.write_text(json.dumps({"host": host, "service": {8080: "http", 9090: "api"}[port],
                                 "services_file": str(services)}))
        files.append(f)
    cfg = UpstreamConfig(*A)
    seen = set()
    stop = threading.Event()

    def handle_requests():
        while not stop.is_set():
            seen.add(cfg.address())
            time.sleep(0.0005)

    workers = [threading.Thread(target=handle_requests) for _ in range(2)]
    for w in workers:
        w.start()
    for i in range(RELOADS):
        cfg.reload(files[(i + 1) % 2])
        time.sleep(0.002)
    stop.set()
    for w in workers:
        w.join()
    assert seen <= {A, B}, seen - {A, B}


RELOADS = 40
