"""Session lifetimes, in whole seconds since the epoch."""

from __future__ import annotations


def is_expired(issued_at: int, ttl: int, now: int) -> bool:
    """A session is valid for `ttl` seconds: from issued_at up to, not including, issued_at + ttl."""
    return now >= issued_at + ttl


def remaining(issued_at: int, ttl: int, now: int) -> int:
    """Seconds left before expiry, never negative."""
    return max(0, issued_at + ttl - now)
