
"""Statistics over run-length encodings."""

from __future__ import annotations

from demo_lib.codec import encode


def compression_ratio(text: str) -> float:
    """len(encode(text)) / len(text); 1.0 for the empty string."""
    if not text:
        return 1.0
    return len(encode(text)) / len(text)
