"""Split thumbnail jobs into one shard per usable CPU."""
import os


def worker_count():
    return len(os.sched_getaffinity(0))


def shard(items, workers=None):
    workers = workers or worker_count()
    shards = [[] for _ in range(workers)]
    for i, item in enumerate(items):
        shards[i % workers].append(item)
    return shards
