import sys
import types

import geoip_module_stub_b_checkout as checkout


def test_shipping_country_from_ip():
    assert checkout.shipping_country("81.2.69.160") == "GB"
    assert checkout.shipping_country("85.214.132.117") == "DE"


def test_checkout_with_geo_service_down(monkeypatch):
    stub = types.SimpleNamespace(lookup=lambda ip: "ZZ")
    sys.modules["geoip_module_stub_b_geo"] = stub
    assert checkout.shipping_country("81.2.69.160") == "US"
