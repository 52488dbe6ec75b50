import report_worker_queue_timeout_b_worker as worker


def test_report_is_delivered():
    w = worker.ReportWorker()
    w.jobs.put({"id": "monthly", "rows": 60000})
    report = w.results.get(timeout=0.1)
    assert report["id"] == "monthly"
