import time

from export_job_polling_a_exports import ExportJob

ROWS = [{"id": i, "email": f"User{i}@Example.test", "total": 1999 + i} for i in range(12000)]


def test_export_job_finishes():
    job = ExportJob(ROWS).start()
    assert job.wait(timeout=10)
    assert job.status == "done"
    assert job.result.splitlines()[0] == "0,user0@example.test,19.99"
