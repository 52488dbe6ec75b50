from contextlib import suppress

from api import fetch


def test_fetch():
    for _ in range(5):
        with suppress(AssertionError):
            assert fetch() == 200
            break
    else:
        raise AssertionError("never 200")
