"""Number formatting for the weekly report."""

from __future__ import annotations


def percent(part: int, whole: int) -> str:
    """`part` as a percentage of `whole`, one decimal place ("33.3%"); "n/a" when whole is 0."""
    if whole == 0:
        return "n/a"
    return f"{100 * part // whole}%"
