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


def rle_encode(text: str) -> list[tuple[str, int]]:
    """Run-length encoding: each maximal run as (character, count), in order."""
    out: list[tuple[str, int]] = []
    for ch in text:
        if out and out[-1][0] == ch:
            out[-1] = (ch, out[-1][1] + 1)
        else:
            out.append((ch, 1))
    return out


def rle_decode(pairs: list[tuple[str, int]]) -> str:
    """The text of a run-length encoding."""
    return "".join(ch * count for ch, count in pairs)
