from cached_settings_a_app import get_settings


def test_default_region(monkeypatch):
    monkeypatch.delenv("APP_REGION", raising=False)
    assert get_settings().region == "eu-west-1"


def test_region_override(monkeypatch):
    monkeypatch.setenv("APP_REGION", "us-east-2")
    get_settings.cache_clear()
    assert get_settings().region == "us-east-2"
