"""A helper that swallows its act's failure, run again and again, the test keeping any success:
every consumer of the results is a retry (red-team pass 7 found the first six passing lint)."""

import random
from contextlib import suppress


def attempt():
    try:
        assert random.random() < 0.5
        return True
    except AssertionError:
        return False


def quietly():
    with suppress(AssertionError):
        assert random.random() < 0.5
        return True
    return False


def test_best_of_three():
    assert max(attempt() for _ in range(3))


def test_any_of_a_list():
    assert True in [attempt() for _ in range(3)]


def test_counted_successes():
    assert sum(map(lambda _: attempt(), range(5))) > 0


def test_until_it_passes_or_five_tries():
    tries = 0
    while not attempt() and tries < 5:
        tries += 1
    assert tries < 5


def test_first_success():
    assert next(filter(None, (quietly() for _ in range(5))), False)


def attempt_with(_):
    try:
        assert random.random() < 0.5
        return True
    except AssertionError:
        return False


def test_helper_by_name():
    assert any(map(attempt_with, [None] * 3))
