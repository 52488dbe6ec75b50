"""URL slugs."""

from __future__ import annotations

import re

_NON_WORD = re.compile(r"[^a-z0-9]+")


def slugify(text: str, sep: str = "-") -> str:
    """Lower-case ASCII words of `text` joined by `sep`."""
    words = _NON_WORD.split(text.lower())
    return sep.join(w for w in words if w)
