import os

import webhook_proxy_env_a_client as client


def test_webhook_goes_direct():
    cfg = client.session_config("https://hooks.example.com/orders")
    assert cfg["proxy"] is None
    assert cfg["verify"] is True


def test_corporate_proxy_is_used(monkeypatch):
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.corp.example:3128")
    cfg = client.session_config("https://hooks.example.com/orders")
    assert cfg["proxy"] == "http://proxy.corp.example:3128"
