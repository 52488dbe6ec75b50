import shipping_carrier_defaults_b_shipping as shipping


def test_default_carrier_is_dhl():
    settings = shipping.carrier_settings()
    assert settings["carrier"] == "dhl"
    assert settings["max_weight_kg"] == 31.5


def test_bulky_goods_override():
    settings = shipping.carrier_settings({"carrier": "freight", "max_weight_kg": 1000})
    assert settings["carrier"] == "freight"
