import os

import pytest


import csrf_secret_env_brittle_b_csrf as csrf


@pytest.fixture
def secret(monkeypatch):
    monkeypatch.setenv("APP_SECRET_KEY", "test-secret-key-0123")


def test_dev_settings_provide_secret():
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("APP_SECRET_KEY", os.environ.get("APP_SECRET_KEY", "dev-insecure-key"))
        assert len(os.environ["APP_SECRET_KEY"]) >= 16


def test_token_round_trip(secret):
    token = csrf.make_token("sess-9f1c")
    assert len(token) == 32
    assert csrf.check_token("sess-9f1c", token)
    assert not csrf.check_token("sess-other", token)
