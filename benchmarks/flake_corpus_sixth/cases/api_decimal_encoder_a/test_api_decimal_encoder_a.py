from decimal import Decimal

import api_decimal_encoder_a_api as api


def test_prices_are_json_numbers():
    assert api.dumps({"sku": "A-1", "price": Decimal("9.50")}) == '{"price": 9.5, "sku": "A-1"}'


def test_legacy_clients_get_string_prices(monkeypatch):
    monkeypatch.setitem(api.ENCODERS, Decimal, str)
    assert api.dumps({"price": Decimal("9.50")}) == '{"price": "9.50"}'
