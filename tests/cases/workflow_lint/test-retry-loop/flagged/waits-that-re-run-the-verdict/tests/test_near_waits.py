"""Shapes next to the waits lint leaves alone, that re-run what decides the test's verdict."""

import queue
import socket
import time

from retry import retry

from pool import Pool, upload


@retry(AssertionError, tries=5, delay=1)
def test_pool_drains():
    assert Pool(size=2).drain() == []


@retry(AssertionError, tries=5, delay=0.5)
def submit_and_check(pool):
    pool.submit("job")
    assert pool.stats()["done"] == 1


def upload_until_accepted(client, path):
    for _ in range(5):
        try:
            upload(client, path)
            return
        except Exception:
            time.sleep(1)


def test_read_retried_on_a_failure_too():
    q = queue.Queue()
    while True:
        try:
            item = q.get(timeout=0.1)
            assert item == 1
            break
        except (queue.Empty, AssertionError):
            continue


def test_timeout_of_the_act_under_test():
    pool = Pool(size=1)
    while True:
        try:
            pool.resize(4)
            break
        except TimeoutError:
            continue
    assert pool.size == 4


def test_request_then_read_retried():
    sock = socket.create_connection(("127.0.0.1", 8080))
    sock.settimeout(0.5)
    while True:
        try:
            sock.sendall(b"PING\r\n")
            reply = sock.recv(64)
            break
        except socket.timeout:
            continue
    assert reply == b"PONG\r\n"


def test_planted_error_not_what_is_asserted(fake_pool):
    for _ in range(3):
        try:
            result = fake_pool.run("job")
            break
        except ConnectionError:
            pass
    assert result == "done"


def publish_until_seen(client, topic):
    for _ in range(10):
        try:
            client.publish(topic, b"x")
            assert client.last_seen(topic) == b"x"
            return
        except AssertionError:
            time.sleep(0.2)


def test_reader_forgives_its_own_failure(reader):
    for attempt in range(5):
        try:
            assert reader.read_response() == b"OK"
            break
        except AssertionError:
            pass
    assert attempt < 5


def compute_patiently(client, job):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            return client.compute(job)
        except Exception:
            time.sleep(1)
    raise TimeoutError(job)
