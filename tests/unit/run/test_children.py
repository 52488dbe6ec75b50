"""Descendants are found through /proc and all stopped, orphans included (Linux)."""

from __future__ import annotations

import subprocess
import sys
import time

from lanegate.run import children

# Runs in its own interpreter: becoming a subreaper is for the life of the process.
_SCRIPT = """
import os, subprocess, sys, time
from lanegate.run import children
assert children.become_subreaper()
code = ("import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', 'import time; "
        "time.sleep(60)'], start_new_session=True, stdout=subprocess.DEVNULL, "
        "stderr=subprocess.DEVNULL); print(p.pid)")
out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True)
orphan = int(out.stdout)
assert orphan in children.descendants(), 'the orphan was not re-parented to us'
sibling = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])
stopped = children.stop_descendants(grace_seconds=0.5)
time.sleep(0.05)
left = children.descendants()
print(stopped, orphan in left, sibling.pid in left, os.path.exists(f'/proc/{orphan}'))
"""


def test_stop_descendants_reaches_orphans_in_their_own_session() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "False", "False", "False"]


def test_child_clock_counts_time_with_a_child_alive() -> None:
    clock = children.ChildClock(interval=0.02)
    clock.start()
    time.sleep(0.2)
    subprocess.run([sys.executable, "-c", "import time; time.sleep(0.6)"], check=True)
    busy = clock.stop()
    assert 0.4 < busy < 1.0
