"""Order-preserving uniqueness helpers for hashable items."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import TypeVar

H = TypeVar("H", bound=Hashable)


def dedupe(items: Iterable[H]) -> list[H]:
    """The items without repeats, each kept at its first position."""
    return list(dict.fromkeys(items))


def duplicates(items: Iterable[H]) -> list[H]:
    """Items seen more than once, in the order their second occurrence appears."""
    seen: set[H] = set()
    reported: set[H] = set()
    out: list[H] = []
    for item in items:
        if item in seen and item not in reported:
            reported.add(item)
            out.append(item)
        seen.add(item)
    return out
