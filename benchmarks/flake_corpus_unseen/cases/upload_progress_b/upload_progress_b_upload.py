"""Resumable uploads report progress to the UI after every chunk."""
import os
import random


class Upload:
    def __init__(self, total_bytes):
        self.total = total_bytes
        self.done = 0
        self.fraction = 0.0

    def on_chunk(self, nbytes):
        self.done += nbytes
        self.fraction += nbytes / self.total

    @property
    def progress(self):
        return self.fraction

    @property
    def finished(self):
        return self.progress == 1.0


def upload_file(upload, chunk_sizes):
    for n in chunk_sizes:
        upload.on_chunk(n)
    return upload


def random_chunks(total, rng=random):
    """Chunk sizes as the network layer hands them to us (anything between 16 KiB and 256 KiB)."""
    left = total
    while left:
        n = min(rng.randint(16 * 1024, 256 * 1024), left)
        left -= n
        yield n
