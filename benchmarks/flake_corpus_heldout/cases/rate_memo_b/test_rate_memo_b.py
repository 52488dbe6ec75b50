import pytest

from rate_memo_b_app import FETCHES, convert, exchange_rate


@pytest.fixture(autouse=True)
def fresh_rate_cache():
    exchange_rate.cache_clear()
    FETCHES["n"] = 0
    yield
    exchange_rate.cache_clear()


def test_rate_is_fetched_once():
    exchange_rate("EUR")
    exchange_rate("EUR")
    assert FETCHES["n"] == 1


def test_convert_eur():
    assert convert(100, "EUR") == 108.0
