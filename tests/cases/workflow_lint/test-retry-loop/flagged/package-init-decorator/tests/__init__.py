"""Shared helpers of the suite."""

import functools
import sys


def retry_on_failure(retries=3):
    """Run a test again when it fails, up to `retries` times."""

    def decorator(test):
        @functools.wraps(test)
        def wrapper(*args, **kwargs):
            for attempt in range(retries):
                try:
                    return test(*args, **kwargs)
                except AssertionError as exc:
                    if attempt == retries - 1:
                        raise
                    print(f"{exc}: retrying", file=sys.stderr)

        return wrapper

    return decorator
