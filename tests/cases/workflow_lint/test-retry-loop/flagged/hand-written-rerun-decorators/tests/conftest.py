import functools
import time

import pytest


def rerun_on(*errors, times=3):
    """Applied by the test modules to tests that talk to the flaky staging service."""

    def decorate(test):
        @functools.wraps(test)
        def run(*args, **kwargs):
            for _ in range(times):
                try:
                    return test(*args, **kwargs)
                except errors:
                    time.sleep(1)
            pytest.fail(f"still failing after {times} runs")

        return run

    return decorate
