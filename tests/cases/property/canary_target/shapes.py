"""Small functions whose lines hold every canary family: the canary proof's target."""

from __future__ import annotations


def count_between(xs: list[int], limit: int) -> int:
    """How many items of xs lie strictly between 0 and limit, at most 10."""
    count = 0
    for x in xs:
        if x > 0 and x < limit:
            count += 1
    if count > 10:
        return 10
    return count


def padded_length(xs: list[int]) -> int:
    """len(xs) plus one slot for a terminator."""
    return len(xs) + 1


def sign(n: int) -> int:
    """-1, 0 or 1 by the sign of n."""
    if n < 0:
        return -1
    return 0 if n == 0 else 1


def either_empty(xs: list[int], ys: list[int]) -> bool:
    """True when xs or ys has no items."""
    if len(xs) == 0 or len(ys) == 0:
        return True
    return False
