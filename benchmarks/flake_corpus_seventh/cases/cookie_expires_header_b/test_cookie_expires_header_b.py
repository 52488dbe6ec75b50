import cookie_expires_header_b_cookies as cookies


def test_session_cookie_header():
    header = cookies.session_cookie("7f3a9c", 3600, now=1767225600)  # 2026-01-01 00:00:00 UTC
    assert header == ("sid=7f3a9c; Path=/; Max-Age=3600; Expires=Thu, 01 Jan 2026 01:00:00 GMT; "
                      "HttpOnly; Secure; SameSite=Lax")
