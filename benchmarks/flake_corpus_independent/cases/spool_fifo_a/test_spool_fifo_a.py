import itertools
import os

_seq = itertools.count()


def enqueue(spool, payload):
    path = os.path.join(spool, f"job-{next(_seq):08d}.json")
    with open(path, "w") as fh:
        fh.write(payload)
    return path


def drain(spool):
    out = []
    for name in sorted(os.listdir(spool)):
        with open(os.path.join(spool, name)) as fh:
            out.append(fh.read())
    return out


def test_jobs_processed_in_order(tmp_path):
    enqueue(tmp_path, "first")
    enqueue(tmp_path, "second")
    assert drain(tmp_path) == ["first", "second"]
