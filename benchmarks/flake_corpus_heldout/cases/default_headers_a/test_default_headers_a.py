from default_headers_a_app import build_headers


def test_headers_contain_only_auth():
    assert build_headers("t1") == {"Authorization": "Bearer t1"}


def test_headers_with_trace():
    headers = build_headers("t2")
    headers["X-Trace-Id"] = "abc123"
    assert headers["Authorization"] == "Bearer t2"
