import pytest

import job_queue_shared_memdb_a_jobs as jobs


@pytest.fixture
def worker():
    w = jobs.Worker()
    yield w


def test_fresh_queue_is_empty():
    conn = jobs.connect()
    try:
        jobs.init_queue(conn)
        assert jobs.queued(conn) == 0
        jobs.enqueue(conn, "reindex")
        assert jobs.queued(conn) == 1
    finally:
        conn.close()


def test_worker_claims_job(worker):
    jobs.init_queue(worker.conn)
    jobs.enqueue(worker.conn, "send-digest")
    assert worker.claim() == "send-digest"
