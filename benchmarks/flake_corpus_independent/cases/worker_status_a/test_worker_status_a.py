import re
import threading
import time


class Worker(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.status = "created"
        self.stop = threading.Event()

    def run(self):
        self.status = "starting"
        self.rules = [re.compile(rf"(?P<k{i}>item{i}[a-z]+\d{{2,{i % 5 + 3}}})") for i in range(450)]
        self.status = "running"
        self.stop.wait(2)


def test_worker_reports_running():
    w = Worker()
    w.start()
    time.sleep(0.025)
    assert w.status == "running"
    w.stop.set()
