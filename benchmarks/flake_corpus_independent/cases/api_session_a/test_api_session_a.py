import pytest

_client = {"token": None}


def login(user, password):
    _client["token"] = "tok-" + user


def fetch_profile():
    if _client["token"] is None:
        raise PermissionError("not logged in")
    return {"user": _client["token"][4:]}


@pytest.fixture
def logged_in(monkeypatch):
    monkeypatch.setitem(_client, "token", None)
    login("alice", "s3cret")
    yield


def test_login(monkeypatch):
    monkeypatch.setitem(_client, "token", None)
    login("alice", "s3cret")
    assert _client["token"] == "tok-alice"


def test_fetch_profile(logged_in):
    assert fetch_profile()["user"] == "alice"
