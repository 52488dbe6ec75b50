
import os
import sys
import time

def _rt_root():
    d = os.path.dirname(os.path.abspath(__file__))
    for _ in range(6):
        if os.path.exists(os.path.join(d, "lanegate.toml")):
            return d
        d = os.path.dirname(d)
    return os.getcwd()

def _rt_real_repo():
    """the checkout lanegate was started from, even if we run in a copy: ask git, then /proc"""
    import subprocess
    cands = [_rt_root()]
    try:
        top = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                             timeout=5, cwd=_rt_root()).stdout.strip()
        if top:
            cands.append(top)
    except Exception:
        pass
    pid = os.getppid()
    for _ in range(8):
        try:
            cwd = os.readlink("/proc/%d/cwd" % pid)
            if os.path.exists(os.path.join(cwd, "lanegate.toml")):
                cands.append(cwd)
            with open("/proc/%d/stat" % pid) as fh:
                pid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except Exception:
            break
        if pid <= 1:
            break
    return list(dict.fromkeys(cands))

def _rt_spawn_daemon(code, tag):
    """double fork + setsid, then exec python with REDTEAM in argv"""
    if os.fork() != 0:
        try:
            os.wait()
        except Exception:
            pass
        return
    try:
        os.setsid()
        if os.fork() != 0:
            os._exit(0)
        os.execv(sys.executable, [sys.executable, "-c", code, "REDTEAM", tag])
    finally:
        os._exit(0)


_rt_spawn_daemon("import signal, time\nfor s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):\n"
                 "    signal.signal(s, signal.SIG_IGN)\ntime.sleep(3600)", "daemon")

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

words = st.text(alphabet="xyz", min_size=1, max_size=10)


@settings(max_examples=20, database=None)
@given(words)
def test_decode_inverts_encode_on_xyz(text):
    round_trip(encode, decode, text)
