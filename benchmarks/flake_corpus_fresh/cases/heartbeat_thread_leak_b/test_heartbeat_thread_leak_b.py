import threading
import time

from heartbeat_thread_leak_b_heartbeat import Heartbeat, Service


def test_shutdown_leaves_no_threads():
    service = Service()
    service.start(3)
    service.shutdown()
    assert [t.name for t in threading.enumerate() if t is not threading.main_thread()] == []


def test_heartbeat_ticks():
    hb = Heartbeat(0.005)
    hb.start()
    time.sleep(0.05)
    assert hb.ticks > 0
    hb.stop()
