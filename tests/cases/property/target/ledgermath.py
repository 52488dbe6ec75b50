"""A tiny ledger-math library: the property lane's own proof target."""

from __future__ import annotations


def encode_amounts(amounts: list[int]) -> str:
    """Encode integer amounts as a comma-separated string ("" for no amounts)."""
    return ",".join(str(a) for a in amounts)


def decode_amounts(text: str) -> list[int]:
    """Inverse of encode_amounts."""
    if text == "":
        return []
    return [int(part) for part in text.split(",")]


def clamp(x: int, lo: int, hi: int) -> int:
    """x limited to [lo, hi] (lo <= hi)."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def normalize(name: str) -> str:
    """Lower-case, trimmed, inner runs of spaces collapsed to one."""
    words = name.strip().lower().split()
    return " ".join(words)


def running_total(xs: list[int]) -> list[int]:
    """Prefix sums of xs."""
    out = []
    total = 0
    for x in xs:
        total += x
        out.append(total)
    return out


def split_evenly(total: int, parts: int) -> list[int]:
    """Split total into `parts` integers that differ by at most one and sum to total."""
    base, extra = divmod(total, parts)
    return [base + 1 if i < extra else base for i in range(parts)]


def apply_fee(amount: int, bps: int) -> int:
    """The fee on a non-negative amount at `bps` basis points, rounded down."""
    return amount * bps // 10000


def count_up(n: int) -> int:
    """Count from 0 to n one step at a time (a loop a mutant can make endless)."""
    i = 0
    while i < n:
        i += 1
    return i


def is_round(amount: int) -> bool:
    """True when the amount is a multiple of 100."""
    return amount % 100 == 0


def unused_rate(x: int) -> int:
    """No test calls this function."""
    return x * 3
