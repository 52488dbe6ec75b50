"""Price formatting. Formatters are registered per currency by bootstrap(), which the app calls at start-up."""
from decimal import Decimal

_FORMATTERS = {}


def register(code, fn):
    _FORMATTERS[code] = fn


def _german(amount):
    text = f"{amount:,.2f}"
    return text.replace(",", "X").replace(".", ",").replace("X", ".") + " \u20ac"


def bootstrap():
    register("EUR", _german)
    register("USD", lambda amount: f"${amount:,.2f}")
    register("JPY", lambda amount: f"\u00a5{amount:,.0f}")


def format_price(amount, code):
    return _FORMATTERS[code](Decimal(amount))
