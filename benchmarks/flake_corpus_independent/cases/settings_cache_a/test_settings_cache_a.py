import functools
import os

import pytest


@functools.lru_cache(maxsize=None)
def get_settings():
    return {"region": os.environ.get("APP_REGION", "us-east-1"), "retries": 3}


@pytest.fixture(autouse=True)
def _fresh_settings():
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_region_override(monkeypatch):
    monkeypatch.setenv("APP_REGION", "eu-west-1")
    assert get_settings()["region"] == "eu-west-1"


def test_default_region(monkeypatch):
    monkeypatch.delenv("APP_REGION", raising=False)
    assert get_settings()["region"] == "us-east-1"
