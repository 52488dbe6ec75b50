"""Waiting for a condition, and failures handed on: none of these re-runs a failed test."""

import os
import socket
import threading
import time

import pytest
from tenacity import retry, stop_after_attempt, wait_fixed

from app import Queue, start_worker


def test_job_finishes():
    queue = Queue()
    job = queue.submit("resize")

    @retry(stop=stop_after_attempt(50), wait=wait_fixed(0.1), reraise=True)
    def until_done():
        state = queue.state(job)
        assert state in ("done", "error"), state
        return state

    assert until_done() == "done"


def test_worker_restarts():
    worker = start_worker()
    worker.kill_child()

    @retry(stop=stop_after_attempt(20), wait=wait_fixed(0.2), reraise=True)
    def two_children():
        children = worker.children()
        if len(children) != 2:
            raise AssertionError(children)

    two_children()
    assert worker.alive()


def serve_once(listener: socket.socket, stop: threading.Event) -> bytes:
    listener.settimeout(0.5)
    while True:
        if stop.is_set():
            return b""
        try:
            conn = listener.accept()[0]
            break
        except TimeoutError:
            continue
    return conn.recv(1024)


class Server:
    def ping(self) -> None:
        socket.create_connection(("127.0.0.1", 8000)).close()

    def until_listening(self) -> None:
        while True:
            try:
                self.ping()
                return
            except (ConnectionRefusedError, FileNotFoundError):
                time.sleep(0.05)


def link_or_skip(source, target):
    try:
        os.symlink(source, target)
    except OSError:
        pytest.skip("no symlinks here")
        return None
    return target


def test_links(tmp_path):
    cases = {"inside": lambda: link_or_skip("a", tmp_path / "b")}
    for name, make in cases.items():
        assert make() is not None, name


def _probe(errors: list[str]) -> None:
    try:
        os.stat(".")
    except OSError as error:
        errors.append(str(error))


def test_stat_under_race():
    errors: list[str] = []
    for _ in range(5):
        _probe(errors)
    assert not errors


def test_expects_an_assertion():
    try:
        assert 1 == 2
    except AssertionError:
        pass
    else:
        pytest.fail("the assertion did not fail")


def test_optional_import():
    try:
        import numpy  # noqa: F401
    except Exception:
        pytest.skip("numpy is not installed")


def helper_counts_side_effects(make_check):
    counter = [0]
    check = make_check(counter)
    try:
        check()
    except AssertionError:
        pass
    assert counter[0] == 1


def test_premise_not_met():
    import gc
    import weakref

    class Node:
        pass

    ref = weakref.ref(Node())
    try:
        assert gc.collect() >= 0
    except AssertionError:
        if ref() is not None:
            pytest.skip("this interpreter keeps the object alive")
        raise


def test_exit_on_purpose(resource):
    try:
        with resource:
            assert resource.open
            raise ValueError("leave the context")
    except Exception:
        pass
    assert not resource.open


@pytest.mark.parametrize("action", [int, float])
def test_each_action(action):
    try:
        action("x")
    except BaseException:
        pass
    assert action is not None


def _valid(item):
    try:
        item.validate()
        return True
    except ValueError:
        return False


def test_keeps_the_valid_items(items):
    assert list(filter(_valid, items))
