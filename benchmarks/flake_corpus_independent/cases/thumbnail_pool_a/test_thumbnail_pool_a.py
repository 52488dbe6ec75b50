import zlib
from concurrent.futures import ThreadPoolExecutor


def render_thumbnail(pixels):
    out = pixels
    for _ in range(120):
        out = bytes((b * 7 + 3) & 0xFF for b in out[:20000]) + out[20000:]
    return zlib.crc32(out)


def test_thumbnail_renders():
    pixels = bytes(range(256)) * 400
    with ThreadPoolExecutor(max_workers=2) as pool:
        fut = pool.submit(render_thumbnail, pixels)
        assert isinstance(fut.result(timeout=0.25), int)
