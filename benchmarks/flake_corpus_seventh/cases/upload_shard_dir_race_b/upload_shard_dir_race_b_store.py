"""Upload storage: files are sharded into sub-directories by the first hex digits of their content hash."""
import hashlib
import logging
import os

log = logging.getLogger("uploads")


def store(root, data):
    digest = hashlib.sha256(data).hexdigest()
    shard = os.path.join(root, digest[:3])
    os.makedirs(shard, exist_ok=True)
    path = os.path.join(shard, digest)
    with open(path, "wb") as fh:
        fh.write(data)
    return path
