_client = {"token": None}


def login(user, password):
    _client["token"] = "tok-" + user


def fetch_profile():
    if _client["token"] is None:
        raise PermissionError("not logged in")
    return {"user": _client["token"][4:]}


def test_login():
    login("alice", "s3cret")
    assert _client["token"] == "tok-alice"


def test_fetch_profile():
    assert fetch_profile()["user"] == "alice"
