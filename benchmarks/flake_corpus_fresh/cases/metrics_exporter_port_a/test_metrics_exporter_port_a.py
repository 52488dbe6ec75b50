import time
import urllib.request

from metrics_exporter_port_a_exporter import start_exporter


def test_metrics_endpoint_serves_counters():
    server = start_exporter()
    try:
        port = server.server_address[1]
        for _ in range(5):  # a scrape every 100 ms, like the collector does
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
                assert b"orders_total 12" in resp.read()
            time.sleep(0.1)
    finally:
        server.shutdown()
        server.server_close()
