import os

import pytest


import csrf_secret_env_brittle_a_csrf as csrf


@pytest.fixture
def secret(monkeypatch):
    monkeypatch.setenv("APP_SECRET_KEY", "test-secret-key-0123")


def test_dev_settings_provide_secret():
    os.environ.setdefault("APP_SECRET_KEY", "dev-insecure-key")  # what settings/dev.py does
    assert len(os.environ["APP_SECRET_KEY"]) >= 16


def test_token_round_trip():
    token = csrf.make_token("sess-9f1c")
    assert len(token) == 32
    assert csrf.check_token("sess-9f1c", token)
    assert not csrf.check_token("sess-other", token)
