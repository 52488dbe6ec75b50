"""Integer helpers for pagination and batching."""

from __future__ import annotations


def ceil_div(a: int, b: int) -> int:
    """The ceiling of a / b for any integers, b != 0, without floating point."""
    if b == 0:
        raise ZeroDivisionError("ceil_div by zero")
    return (a + b - 1) // b


def page_count(total: int, per_page: int) -> int:
    if per_page <= 0:
        raise ValueError("per_page must be positive")
    return ceil_div(max(total, 0), per_page)
