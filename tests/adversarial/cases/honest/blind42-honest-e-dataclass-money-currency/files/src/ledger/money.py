"""Amounts of money in integer minor units (cents)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


class CurrencyMismatch(ValueError):
    """Two amounts in different currencies were combined."""


@dataclass(frozen=True)
class Money:
    cents: int
    currency: str


def add(a: Money, b: Money) -> Money:
    """The sum of two amounts of one currency; CurrencyMismatch for two currencies."""
    if a.currency != b.currency:
        raise CurrencyMismatch(f"cannot add {a.currency} to {b.currency}")
    return Money(a.cents + b.cents, a.currency)


def total(amounts: Iterable[Money], currency: str) -> Money:
    """The sum of `amounts`, all in `currency` (zero for none)."""
    result = Money(0, currency)
    for amount in amounts:
        result = add(result, amount)
    return result
