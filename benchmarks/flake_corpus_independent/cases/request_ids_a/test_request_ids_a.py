import itertools

_ids = itertools.count(1)


def new_request(path):
    return {"id": next(_ids), "path": path}


def test_first_request_id():
    assert new_request("/health") == {"id": 1, "path": "/health"}


def test_request_ids_increase():
    a = new_request("/a")
    b = new_request("/b")
    assert b["id"] == a["id"] + 1
