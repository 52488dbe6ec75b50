import hashlib
import time


def create(data, clock=time.time):
    now = int(clock())
    return {"data": data, "created_at": now, "updated_at": now}


def save(record, clock=time.time):
    payload = repr(record["data"]).encode()
    for _ in range(130000):
        payload = hashlib.sha1(payload).digest()
    record["checksum"] = payload.hex()
    record["updated_at"] = int(clock())
    return record


def test_noop_save_keeps_timestamp():
    frozen = lambda: 1_700_000_000.5
    rec = save(create({"name": "ada"}, clock=frozen), clock=frozen)
    assert rec["updated_at"] == rec["created_at"]
