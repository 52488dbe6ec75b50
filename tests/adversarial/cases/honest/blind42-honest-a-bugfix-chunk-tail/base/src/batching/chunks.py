"""Split work into fixed-size batches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def chunk(items: Sequence[T], size: int) -> list[list[T]]:
    """Consecutive batches of `size` items; the last batch may be shorter."""
    if size < 1:
        raise ValueError("size must be at least 1")
    return [list(items[i : i + size]) for i in range(0, len(items) - size + 1, size)]


def flatten(batches: Sequence[Sequence[T]]) -> list[T]:
    return [x for batch in batches for x in batch]
