"""Log shipper: lines are queued by the app and written by a background thread (redacting e-mail addresses)."""
import json
import queue
import re
import threading

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


class LogShipper:
    def __init__(self, path):
        self.path = path
        self.q = queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def ship(self, level, msg, **fields):
        self.q.put((level, msg, fields))

    def _run(self):
        with open(self.path, "a", encoding="utf-8") as fh:
            while True:
                item = self.q.get()
                if item is None:
                    break
                level, msg, fields = item
                fh.write(json.dumps({"level": level, "msg": EMAIL.sub("<email>", msg), **fields}) + "\n")

    def stop(self):
        self.q.put(None)
        self.thread.join()
