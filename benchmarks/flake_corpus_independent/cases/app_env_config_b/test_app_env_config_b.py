import os


def load_config():
    return {
        "debug": os.environ.get("APP_DEBUG", "0") == "1",
        "workers": int(os.environ.get("APP_WORKERS", "4")),
    }


def test_debug_mode_from_env():
    os.environ["APP_DEBUG"] = "1"
    assert load_config()["debug"] is True


def test_defaults_are_production():
    cfg = load_config()
    assert cfg == {"debug": False, "workers": 4}
