"""Fit text into fixed-width table cells."""

from __future__ import annotations


def truncate(text: str, width: int) -> str:
    """`text` cut to at most `width` characters."""
    if width < 1:
        raise ValueError("width must be at least 1")
    return text[:width]


def pad(text: str, width: int) -> str:
    """`text` fitted into exactly `width` characters, left-aligned."""
    return truncate(text, width).ljust(width)
