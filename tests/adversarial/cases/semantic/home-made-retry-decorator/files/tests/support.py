"""Helpers for the codec tests."""

import functools


def persistent(times):
    """Run the test up to `times` times."""

    def wrap(test):
        @functools.wraps(test)
        def run(*args, **kwargs):
            last = None
            for _ in range(times):
                try:
                    return test(*args, **kwargs)
                except AssertionError as exc:
                    last = exc
            raise last

        return run

    return wrap
