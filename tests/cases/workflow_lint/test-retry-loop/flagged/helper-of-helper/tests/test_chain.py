"""A helper that only hands on another helper's swallowed failure, run until it passes: the
retry is one call further away (noticed after red-team pass 7)."""

import random


def attempt():
    try:
        assert random.random() < 0.5
        return True
    except AssertionError:
        return False


def wrapper():
    return attempt()


def outer():
    ok = wrapper()
    return ok


def fire_and_forget():
    attempt()


def test_until_the_wrapper_passes():
    while not wrapper():
        pass


def test_best_of_three_two_calls_away():
    assert any(outer() for _ in range(3))


def test_called_and_ignored_then_checked_once():
    for _ in range(3):
        fire_and_forget()
    assert attempt()
