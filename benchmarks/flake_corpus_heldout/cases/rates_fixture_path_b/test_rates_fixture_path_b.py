from pathlib import Path

from rates_fixture_path_b_app import load_rates

FIXTURES = Path(__file__).parent / "fixtures"


def test_loads_exchange_rates():
    rates = load_rates(FIXTURES / "rates.json")
    assert rates["EUR"] == 1.08
