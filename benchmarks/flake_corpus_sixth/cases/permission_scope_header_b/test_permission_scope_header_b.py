import permission_scope_header_b_oauth as oauth


def test_scope_header():
    req = oauth.token_request("svc-reports", ["read", "write", "read"])
    assert req["scope"] == "read write"
