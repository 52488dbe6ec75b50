import functools

FETCHES = {"n": 0}
_RATES = {"EUR": 1.08, "GBP": 1.27, "JPY": 0.0067}


@functools.lru_cache(maxsize=None)
def exchange_rate(currency):
    FETCHES["n"] += 1
    return _RATES[currency]


def convert(amount, currency):
    return round(amount * exchange_rate(currency), 2)
