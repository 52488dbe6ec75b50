"""Set-Cookie header for the session cookie (RFC 6265 dates are always GMT)."""
import time


def http_date(ts):
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.localtime(ts))


def session_cookie(value, max_age, now):
    return (f"sid={value}; Path=/; Max-Age={max_age}; Expires={http_date(now + max_age)}; "
            "HttpOnly; Secure; SameSite=Lax")
