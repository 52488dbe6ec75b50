import time
import urllib.request

import metrics_exporter_fixed_port_a_metrics as metrics


def test_metrics_endpoint_serves():
    server = metrics.start(0)
    try:
        port = server.server_address[1]
        for _ in range(20):  # scrape a few times, like the collector does
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as resp:
                assert b"orders_total 12" in resp.read()
            time.sleep(0.005)
    finally:
        server.shutdown()
        server.server_close()
