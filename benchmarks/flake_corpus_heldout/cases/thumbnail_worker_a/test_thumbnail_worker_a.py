import os
import time

from thumbnail_worker_a_app import Worker


def test_worker_processes_job():
    w = Worker()
    w.submit("cat.png", os.urandom(20000))
    time.sleep(0.04)
    assert "cat.png" in w.done
