import queue

import pytest

from parse import parse


def test_each_bad_value_is_rejected():
    for value in ["", "x", "1.2.3"]:
        try:
            parse(value)
        except ValueError:
            continue
        pytest.fail(f"{value!r} was accepted")


def test_drain():
    q = queue.Queue()
    q.put(1)
    seen = []
    while True:
        try:
            seen.append(q.get_nowait())
        except queue.Empty:
            break
    assert seen == [1]


def test_error_is_raised():
    for _ in range(2):
        try:
            parse("")
        except ValueError:
            raise
