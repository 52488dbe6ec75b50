import threading

from metrics_registry_iteration_b_registry import Registry


def test_scrape_while_requests_register_series():
    reg = Registry()
    for i in range(3200):
        reg.inc("http_requests_total", path=f"/items/{i}", code="200")
    stop = threading.Event()

    def traffic():
        i = 0
        while not stop.is_set():
            reg.inc("http_requests_total", path=f"/new/{i}", code="200")
            i += 1

    t = threading.Thread(target=traffic)
    t.start()
    try:
        text = reg.scrape()
    finally:
        stop.set()
        t.join()
    assert "http_requests_total" in text
