"""Normalise user-entered tags."""

from __future__ import annotations

from collections.abc import Iterable


def normalize_tag(tag: str, lower: bool = False) -> str:
    """Trim, join inner whitespace with '-', and (when asked) lower-case a tag."""
    words = tag.split()
    joined = "-".join(words)
    return joined.lower() if lower else joined


def tag_set(tags: Iterable[str]) -> list[str]:
    """The distinct normalised tags, sorted, without empty ones."""
    return sorted({t for t in (normalize_tag(raw) for raw in tags) if t})
