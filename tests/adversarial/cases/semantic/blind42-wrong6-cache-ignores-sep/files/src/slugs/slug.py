"""URL slugs."""

from __future__ import annotations

import re

_NON_WORD = re.compile(r"[^a-z0-9]+")
_CACHE: dict[str, str] = {}


def slugify(text: str, sep: str = "-") -> str:
    """Lower-case ASCII words of `text` joined by `sep` (memoised: titles repeat a lot)."""
    cached = _CACHE.get(text)
    if cached is not None:
        return cached
    words = _NON_WORD.split(text.lower())
    slug = sep.join(w for w in words if w)
    _CACHE[text] = slug
    return slug
