import time

import job_status_file_rewrite_b_jobs as jobs


def test_status_always_readable_while_running(tmp_path):
    path = tmp_path / "status.json"
    worker = jobs.start_export(path, 100000)
    seen = []
    while worker.is_alive():
        seen.append(jobs.read_status(path)["rows"])
        time.sleep(0.02)  # the UI polls every 20 ms
    worker.join()
    assert jobs.read_status(path)["state"] == "done"
    assert seen == sorted(seen)
