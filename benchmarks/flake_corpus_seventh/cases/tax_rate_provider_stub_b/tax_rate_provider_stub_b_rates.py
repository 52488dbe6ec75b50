"""Sales-tax rates by US state. Production asks the tax service; the bundled statutory base rates are the offline default."""
BASE_RATES = {"OR": "0.00", "CA": "0.0725", "NY": "0.04", "TX": "0.0625", "MT": "0.00"}


def fetch_rate(state):
    return BASE_RATES[state]
