from ledger.money import CurrencyMismatch, Money, add, total

__all__ = ["CurrencyMismatch", "Money", "add", "total"]
