"""Durations like "90s", "5m", "2h" in whole seconds."""

from __future__ import annotations

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> int:
    """Seconds in `text`; ValueError for anything that is not <digits><unit>."""
    number, unit = text[:-1], text[-1:]
    if not number.isdigit():
        raise ValueError(f"bad duration: {text!r}")
    if unit not in _UNITS:
        raise KeyError(f"unknown unit {unit!r} in {text!r}")
    return int(number) * _UNITS[unit]


def format_duration(seconds: int) -> str:
    for unit in ("d", "h", "m"):
        if seconds and seconds % _UNITS[unit] == 0:
            return f"{seconds // _UNITS[unit]}{unit}"
    return f"{seconds}s"


def parse_or_default(text: str, default: int) -> int:
    """The parsed duration, or `default` when the text is not a duration."""
    try:
        return parse_duration(text)
    except ValueError:
        return default
