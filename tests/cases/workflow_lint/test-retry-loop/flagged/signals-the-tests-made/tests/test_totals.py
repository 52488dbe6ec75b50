"""Retries that hide behind exception names the tests made themselves: a class named like a
"nothing found" signal or a "not there yet" error, raised by the test's own check, is the test's
failure, and catching it in a loop reruns the check until it passes."""

from calc import total

from .errors import MismatchNotFound


class ResultNotFound(AssertionError):
    pass


class NotListening(ConnectionRefusedError):
    pass


def check(value):
    if total(value) != 4:
        raise ResultNotFound(value)


def test_total_with_a_signal_named_not_found():
    for _ in range(3):
        try:
            check(2)
            break
        except ResultNotFound:
            pass


def test_total_with_an_imported_signal():
    for _ in range(3):
        try:
            if total(2) != 4:
                raise MismatchNotFound(2)
            break
        except MismatchNotFound:
            pass


def test_total_with_a_refusal_of_its_own():
    import time

    for _ in range(5):
        try:
            if total(2) != 4:
                raise NotListening()
            break
        except NotListening:
            time.sleep(0.1)
