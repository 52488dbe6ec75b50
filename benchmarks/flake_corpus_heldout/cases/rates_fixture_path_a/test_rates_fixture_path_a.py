from rates_fixture_path_a_app import load_rates


def test_loads_exchange_rates():
    rates = load_rates("fixtures/rates.json")
    assert rates["EUR"] == 1.08
