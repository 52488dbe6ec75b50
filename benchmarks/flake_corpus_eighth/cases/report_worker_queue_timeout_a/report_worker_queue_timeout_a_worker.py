"""Background report worker: jobs in, finished reports out."""
import queue
import statistics
import threading


class ReportWorker:
    def __init__(self):
        self.jobs = queue.Queue()
        self.results = queue.Queue()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while True:
            job = self.jobs.get()
            values = [((i * 7919) % 1000) / 10 for i in range(job["rows"])]
            self.results.put({"id": job["id"], "median": statistics.median(values),
                              "stdev": round(statistics.pstdev(values), 3)})
