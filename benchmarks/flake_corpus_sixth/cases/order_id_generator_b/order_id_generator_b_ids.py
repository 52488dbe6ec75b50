"""Human-friendly order ids with a Luhn-style check digit."""
import threading


def _check_digit(n):
    digits = [int(d) for d in str(n)]
    for _ in range(3):
        total = sum(d * (2 if i % 2 else 1) for i, d in enumerate(reversed(digits)))
    return (10 - total % 10) % 10


def _sequence(prefix):
    n = 100000
    while True:
        n += 1
        yield f"{prefix}-{n}{_check_digit(n)}"


_gen = _sequence("ORD")
_lock = threading.Lock()


def next_order_id():
    with _lock:
        return next(_gen)
