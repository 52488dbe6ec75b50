"""Runs of equal consecutive characters."""

from __future__ import annotations


def longest_run(text: str) -> int:
    """Length of the longest run of one repeated character (0 for an empty string)."""
    best = current = 0
    previous = None
    for ch in text:
        current = current + 1 if ch == previous else 1
        previous = ch
        best = max(best, current)
    return best
