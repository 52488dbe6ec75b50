import functools
import os


@functools.lru_cache(maxsize=None)
def get_settings():
    return {"region": os.environ.get("APP_REGION", "us-east-1"), "retries": 3}


def test_region_override(monkeypatch):
    monkeypatch.setenv("APP_REGION", "eu-west-1")
    assert get_settings()["region"] == "eu-west-1"


def test_default_region():
    assert get_settings()["region"] == "us-east-1"
