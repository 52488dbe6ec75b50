"""Two tests each define a helper named `attempt`: only the one whose own `attempt` swallows its
act's failure retries it. Each name is resolved in its own scope, never merged by name."""

import os


def test_retries_its_own_swallowing_attempt():
    def attempt():
        try:
            return os.getpid() > 0
        except OSError:
            return False

    for _ in range(3):
        if attempt():
            break


def test_loops_over_an_attempt_that_fails_loudly():
    def attempt():
        return os.getpid() > 0

    for _ in range(3):
        if attempt():
            break


class TestMethods:
    def test_method_with_a_loud_attempt(self):
        def attempt():
            return os.getpid() > 0

        while not attempt():
            pass
