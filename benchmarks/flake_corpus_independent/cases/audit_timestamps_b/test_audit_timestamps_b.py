import hashlib
import time


def create(data):
    now = int(time.time())
    return {"data": data, "created_at": now, "updated_at": now}


def save(record):
    payload = repr(record["data"]).encode()
    for _ in range(130000):
        payload = hashlib.sha1(payload).digest()
    record["checksum"] = payload.hex()
    record["updated_at"] = int(time.time())
    return record


def test_noop_save_keeps_timestamp():
    rec = save(create({"name": "ada"}))
    assert rec["updated_at"] == rec["created_at"]
