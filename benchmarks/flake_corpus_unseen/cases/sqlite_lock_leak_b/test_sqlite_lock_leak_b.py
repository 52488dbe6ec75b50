import pytest

import sqlite_lock_leak_b_jobs as jobs


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("queue") / "jobs.sqlite"
    jobs.init(path)
    yield path
    jobs.close_all()


def test_enqueue_job(db):
    jobs.enqueue(db, "resize-images")
    assert "resize-images" in jobs.names(db)


def test_batch_rejects_invalid_job(db):
    writer = jobs.BatchWriter(db)
    writer.begin()
    writer.add("send-digest")
    with pytest.raises(ValueError):
        writer.add("")
    writer.abort()
