import pathlib

from dotenv_settings_a_settings import load_settings

ENV_FILE = pathlib.Path(__file__).with_name("dotenv_settings_a.env")


def test_database_name_from_env_file():
    settings = load_settings(ENV_FILE)
    assert settings["DB_NAME"] == "shop_test"
