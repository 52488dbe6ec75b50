import os

SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3"}


def format_price(amount):
    currency = os.environ.get("SHOP_CURRENCY", "USD")
    return f"{SYMBOLS[currency]}{amount:,.2f}"
