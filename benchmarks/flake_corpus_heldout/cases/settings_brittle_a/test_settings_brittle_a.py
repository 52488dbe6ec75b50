from settings_brittle_a_app import load_settings, retry_policy, settings


def test_load_settings_from_file(tmp_path):
    ini = tmp_path / "app.ini"
    ini.write_text("[app]\nname = billing\nretries = 5\n")
    load_settings(ini)
    assert settings["name"] == "billing"


def test_retry_policy_uses_configured_retries():
    assert retry_policy().max_attempts == 5
