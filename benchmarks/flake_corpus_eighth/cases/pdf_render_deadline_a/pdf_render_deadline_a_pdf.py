"""Invoice PDF rendering (layout pass) with a per-document deadline."""
import time
import zlib


class RenderTimeout(Exception):
    pass


def render(lines, deadline_s):
    start = time.monotonic()
    pages = []
    for i, line in enumerate(lines):
        glyphs = zlib.compress((line * 40).encode(), 9)
        pages.append(len(glyphs))
        if i % 50 == 0 and time.monotonic() - start > deadline_s:
            raise RenderTimeout(f"gave up after {i} lines")
    return pages
