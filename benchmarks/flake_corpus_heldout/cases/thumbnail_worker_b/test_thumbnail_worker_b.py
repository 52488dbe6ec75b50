import os
import threading

from thumbnail_worker_b_app import Worker


def test_worker_processes_job():
    w = Worker()
    w.submit("cat.png", os.urandom(20000))
    waiter = threading.Thread(target=w.jobs.join, daemon=True)
    waiter.start()
    waiter.join(timeout=10)
    assert "cat.png" in w.done
