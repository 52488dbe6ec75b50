import os

from env_mode_a_app import current_mode, log_level


def test_default_mode_is_production():
    assert current_mode() == "production"
    assert log_level() == "WARNING"


def test_debug_mode_enables_verbose_logs():
    os.environ["BILLING_MODE"] = "debug"
    assert log_level() == "DEBUG"
