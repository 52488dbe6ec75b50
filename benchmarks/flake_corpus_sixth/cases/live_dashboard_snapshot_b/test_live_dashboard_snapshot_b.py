import threading
import time

import live_dashboard_snapshot_b_metrics as metrics


def test_dashboard_renders_while_collecting():
    reg = metrics.Registry()
    for i in range(3000):
        reg.set(f"disk_{i}_free", i * 1.5)
    stop = threading.Event()

    def collector():  # discovers new processes in bursts
        for i in range(2000):
            if stop.is_set():
                break
            reg.set(f"proc_{i}_rss", i * 0.25)
            if i % 50 == 0:
                time.sleep(0.001)

    t = threading.Thread(target=collector)
    t.start()
    try:
        for _ in range(5):
            assert metrics.render(reg).startswith("disk_0_free")
            time.sleep(0.002)  # refresh interval (shortened for the test)
    finally:
        stop.set()
        t.join()
