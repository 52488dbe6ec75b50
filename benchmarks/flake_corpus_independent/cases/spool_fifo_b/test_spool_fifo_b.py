import os
import tempfile


def enqueue(spool, payload):
    fd, path = tempfile.mkstemp(dir=spool, prefix="job-", suffix=".json")
    with os.fdopen(fd, "w") as fh:
        fh.write(payload)
    return path


def drain(spool):
    out = []
    for name in os.listdir(spool):
        with open(os.path.join(spool, name)) as fh:
            out.append(fh.read())
    return out


def test_jobs_processed_in_order(tmp_path):
    enqueue(tmp_path, "first")
    enqueue(tmp_path, "second")
    assert drain(tmp_path) == ["first", "second"]
