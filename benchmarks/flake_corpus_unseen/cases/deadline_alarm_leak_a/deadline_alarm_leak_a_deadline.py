"""SIGALRM-based deadline for blocking calls in the (single-threaded) export worker."""
import signal


class DeadlineExceeded(Exception):
    pass


def _raise(signum, frame):
    raise DeadlineExceeded("deadline exceeded")


def run_with_deadline(fn, seconds):
    signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        result = fn()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    return result
