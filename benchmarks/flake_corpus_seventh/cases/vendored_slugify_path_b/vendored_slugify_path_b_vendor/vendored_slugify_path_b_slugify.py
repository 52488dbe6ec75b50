"""Vendored copy of a tiny slugify helper (kept out of the top-level package on purpose)."""
import re
import unicodedata

__version__ = "4.0.1"


def slugify(text):
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
