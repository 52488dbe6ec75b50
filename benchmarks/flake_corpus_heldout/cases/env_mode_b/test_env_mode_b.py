import os

import pytest

from env_mode_b_app import current_mode, log_level


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch):
    monkeypatch.delenv("BILLING_MODE", raising=False)


def test_default_mode_is_production():
    assert current_mode() == "production"
    assert log_level() == "WARNING"


def test_debug_mode_enables_verbose_logs(monkeypatch):
    monkeypatch.setenv("BILLING_MODE", "debug")
    assert log_level() == "DEBUG"
