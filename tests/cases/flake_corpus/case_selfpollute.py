"""Self-polluters: pass once per process, fail when run again in the same process."""

import functools

CALLS = []
COUNTER = {"n": 0}


class Box:
    items = []


def test_calls_once():
    CALLS.append(1)
    assert len(CALLS) == 1


def test_counter_starts_at_zero():
    COUNTER["n"] += 1
    assert COUNTER["n"] == 1


def test_class_attribute_list():
    Box.items.append("x")
    assert Box.items == ["x"]


@functools.lru_cache(maxsize=None)
def _expensive(n):
    return [n]


def test_cached_list_mutation():
    value = _expensive(3)
    value.append(4)
    assert value == [3, 4]


def test_local_list_each_time():
    calls = []
    calls.append(1)
    assert len(calls) == 1


def test_copy_of_cached_value():
    value = list(_expensive(9))
    value.append(10)
    assert value == [9, 10]


def test_instance_attribute_list():
    class Fresh:
        def __init__(self):
            self.items = []

    fresh = Fresh()
    fresh.items.append("x")
    assert fresh.items == ["x"]
