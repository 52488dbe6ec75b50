"""Next to the waits: an act that writes, paced; a read retried at once on a failed check; a
helper whose `try` guards the act itself: each re-runs an act until it passes."""

import contextlib
import time

import requests


def test_post_until_accepted(url):
    while True:
        try:
            requests.post(url, json={"name": "job"}).raise_for_status()
            break
        except Exception:
            time.sleep(0.5)


def test_status_checked_three_times(url):
    for _ in range(3):
        try:
            assert requests.get(url).status_code == 200
            break
        except AssertionError:
            pass


@contextlib.contextmanager
def opened(path):
    try:
        handle = open(path)
    except OSError:
        handle = None
    try:
        yield handle
    finally:
        if handle is not None:
            handle.close()


def test_first_readable(path):
    with contextlib.ExitStack() as stack:
        handles = [stack.enter_context(opened(path)) for _ in range(3)]
    assert any(handles)
