"""CSV exports run in a background thread; the UI polls the job status."""
import csv
import io
import threading


class ExportJob:
    def __init__(self, rows):
        self.rows = rows
        self.status = "queued"
        self.result = None
        self._done = threading.Event()

    def start(self):
        threading.Thread(target=self._run, daemon=True).start()
        return self

    def _run(self):
        self.status = "running"
        buf = io.StringIO()
        w = csv.writer(buf)
        for r in self.rows:
            w.writerow([r["id"], r["email"].lower(), f"{r['total'] / 100:.2f}"])
        self.result = buf.getvalue()
        self.status = "done"
        self._done.set()

    def wait(self, timeout=None):
        return self._done.wait(timeout)
