from rate_memo_a_app import FETCHES, convert, exchange_rate


def test_rate_is_fetched_once():
    FETCHES["n"] = 0
    exchange_rate("EUR")
    exchange_rate("EUR")
    assert FETCHES["n"] == 1


def test_convert_eur():
    assert convert(100, "EUR") == 108.0
