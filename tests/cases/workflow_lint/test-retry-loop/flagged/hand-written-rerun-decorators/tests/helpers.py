"""Decorators the suite applies to its tests: each re-runs a failed test."""

import functools
import time


def retry_on_failure(retries=3):
    def decorator(test):
        @functools.wraps(test)
        def wrapper(*args, **kwargs):
            error = None
            for attempt in range(retries):
                try:
                    return test(*args, **kwargs)
                except AssertionError as exc:
                    error = exc
                    print(f"{exc}, retrying {attempt + 1}/{retries}")
            raise error

        return wrapper

    return decorator


def retry_on(*errors, tries=3):
    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for _ in range(tries - 1):
                try:
                    return func(*args, **kwargs)
                except errors:
                    time.sleep(0.5)
            return func(*args, **kwargs)

        return wrapper

    return decorator


@retry_on(ConnectionError)
def fetch_twice(client):
    return client.fetch()
