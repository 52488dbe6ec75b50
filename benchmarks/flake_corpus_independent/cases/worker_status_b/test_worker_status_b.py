import re
import threading


class Worker(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.status = "created"
        self.stop = threading.Event()
        self.started_ok = threading.Event()

    def run(self):
        self.status = "starting"
        self.rules = [re.compile(rf"(?P<k{i}>item{i}[a-z]+\d{{2,{i % 5 + 3}}})") for i in range(450)]
        self.status = "running"
        self.started_ok.set()
        self.stop.wait(2)


def test_worker_reports_running():
    w = Worker()
    w.start()
    assert w.started_ok.wait(10)
    assert w.status == "running"
    w.stop.set()
