import itertools

_ids = itertools.count(1)


def new_request(path):
    return {"id": next(_ids), "path": path}


def test_first_request_id():
    req = new_request("/health")
    assert req["path"] == "/health"
    assert isinstance(req["id"], int) and req["id"] >= 1


def test_request_ids_increase():
    a = new_request("/a")
    b = new_request("/b")
    assert b["id"] == a["id"] + 1
