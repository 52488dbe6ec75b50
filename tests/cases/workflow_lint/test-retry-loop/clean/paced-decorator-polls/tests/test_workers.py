"""Waits for a worker pool to reach a state: a helper that only reads, paced by its decorator."""

import socket
import time

import pytest
from retry import retry

from pool import Pool, Worker


@retry(AssertionError, tries=10, delay=0.5)
def assert_all_idle(pool):
    states = [w.state for w in pool.workers]
    assert states == ["idle"] * len(pool.workers), states


@retry(AssertionError, tries=20, delay=0.1, backoff=2)
def wait_for_workers(pool, count):
    assert len(pool.workers) == count


def wait_until_listening(host, port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            sock = socket.create_connection((host, port), timeout=1)
            sock.close()
            return
        except Exception:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listening on {host}:{port} after {timeout}s")


@pytest.fixture
def server(tmp_path):
    proc = Pool.spawn_server(tmp_path)
    for _ in range(50):
        try:
            proc.client().ping()
            break
        except Exception:
            time.sleep(0.2)
    else:
        pytest.fail("server never answered a ping")
    yield proc
    proc.stop()


def test_pool_goes_idle(server):
    pool = Pool(size=3)
    pool.submit(Worker.noop)
    wait_for_workers(pool, 3)
    assert_all_idle(pool)
    wait_until_listening("127.0.0.1", server.port)
    assert pool.stats()["done"] == 1
