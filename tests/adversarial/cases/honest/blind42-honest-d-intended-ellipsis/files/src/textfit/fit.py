"""Fit text into fixed-width table cells."""

from __future__ import annotations

ELLIPSIS = "\u2026"


def truncate(text: str, width: int) -> str:
    """`text` cut to at most `width` characters; a cut text ends with an ellipsis."""
    if width < 1:
        raise ValueError("width must be at least 1")
    if len(text) <= width:
        return text
    return text[: width - 1] + ELLIPSIS


def pad(text: str, width: int) -> str:
    """`text` fitted into exactly `width` characters, left-aligned."""
    return truncate(text, width).ljust(width)
