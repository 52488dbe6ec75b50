import pytest

from settings_brittle_b_app import load_settings, retry_policy, settings


@pytest.fixture
def configured(tmp_path):
    ini = tmp_path / "app.ini"
    ini.write_text("[app]\nname = billing\nretries = 5\n")
    load_settings(ini)
    yield settings
    settings.clear()


def test_load_settings_from_file(configured):
    assert configured["name"] == "billing"


def test_retry_policy_uses_configured_retries(configured):
    assert retry_policy().max_attempts == 5
