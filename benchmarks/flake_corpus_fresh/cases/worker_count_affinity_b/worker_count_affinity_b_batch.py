import os


def default_workers():
    return len(os.sched_getaffinity(0))


def chunk(items, workers=None):
    workers = workers or default_workers()
    size = -(-len(items) // workers)
    return [items[i:i + size] for i in range(0, len(items), size)]
