import pathlib

from dotenv_settings_b_settings import load_settings

ENV_FILE = "dotenv_settings_b.env"


def test_database_name_from_env_file():
    settings = load_settings(ENV_FILE)
    assert settings["DB_NAME"] == "shop_test"
