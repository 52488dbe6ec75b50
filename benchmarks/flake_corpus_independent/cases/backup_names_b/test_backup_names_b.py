import zlib
from datetime import datetime


def make_backup(data, now=None):
    now = now or datetime.now()
    name = f"db-{now:%Y%m%d-%H%M%S}.bak"
    blob = data
    for _ in range(6):
        blob = zlib.compress(blob + data, 9)
    return name, blob, now


def test_backup_name_uses_now():
    data = bytes(range(256)) * 9000
    name, blob, used = make_backup(data)
    assert blob
    assert name == f"db-{used:%Y%m%d-%H%M%S}.bak"
