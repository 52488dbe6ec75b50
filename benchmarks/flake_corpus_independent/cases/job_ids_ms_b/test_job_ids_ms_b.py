import itertools
import json
import time

_seq = itertools.count()


def submit(spec):
    body = json.dumps(spec, sort_keys=True)
    return {"id": f"job-{int(time.time() * 1000)}-{next(_seq)}", "body": body}


def test_job_ids_distinct():
    spec = {"steps": [{"name": f"s{i}", "args": list(range(20))} for i in range(320)]}
    a = submit(spec)
    b = submit(spec)
    assert a["id"] != b["id"]
