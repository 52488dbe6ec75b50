"""Polls of a cluster's state while it rebalances: helpers that read and check, paced."""

import json
import os
import subprocess
import sys
import time
import unittest

import psutil
from retry import retry

from cluster import Master, start_worker


def children_of(process):
    return [c for c in process.children() if "tracker" not in " ".join(c.cmdline())]


def check_children(expected, patience=20):
    for attempt in range(patience):
        try:
            pids = {c.pid for c in children_of(psutil.Process())}
            assert len(pids) == expected, pids
            return
        except AssertionError:
            if attempt == patience - 1:
                raise
            time.sleep(0.1)


def wait_for_index(client, name, timeout=None):
    delay = 0.1
    while True:
        try:
            info = client.execute_command("INDEX.INFO", name)
            if int(info["pending"]) == 0:
                break
        except KeyError:
            break
        except client.ResponseError:
            pass  # not created yet
        time.sleep(delay)
        if timeout is not None:
            timeout -= delay
            if timeout <= 0:
                break


class TestRebalance(unittest.TestCase):
    def test_workers_share_the_load(self):
        master = Master()
        workers = [start_worker(master) for _ in range(3)]
        master.start(users=6)

        @retry(AssertionError, tries=10, delay=0.5)
        def check_balanced():
            for worker in workers:
                self.assertEqual(2, worker.user_count)

        check_balanced()
        check_children(3)


def test_state_file_written():
    def state_ready(path):
        if not os.path.exists(path):
            return False
        try:
            with open(path) as f:
                json.load(f)
            return True
        except ValueError:
            return False

    proc = subprocess.Popen([sys.executable, "-m", "cluster.daemon"])
    path = f"/tmp/cluster-{proc.pid}.json"
    start = time.time()
    while not state_ready(path) and proc.poll() is None and time.time() < start + 10:
        time.sleep(0.1)
    assert os.path.exists(path)
