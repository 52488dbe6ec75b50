"""Thumbnail generation for an upload batch."""
import concurrent.futures as cf
import hashlib
import os
import zlib


def render(name, out_dir, size=1000):
    data = (name * 100).encode()
    pixels = b"".join(hashlib.sha256(data + bytes([i % 256])).digest() for i in range(size))
    path = os.path.join(out_dir, name + ".thumb")
    with open(path, "wb") as fh:
        fh.write(zlib.compress(pixels, 1))
    return path


def render_batch(names, out_dir):
    done = []
    with cf.ThreadPoolExecutor(max_workers=4) as pool:
        for name in names:
            pool.submit(render, name, out_dir).add_done_callback(lambda f: done.append(f.result()))
    return done
