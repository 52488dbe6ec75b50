def build_headers(token, extra=None):
    headers = dict(extra or {})
    headers["Authorization"] = f"Bearer {token}"
    return headers
