def build_headers(token, extra={}):
    extra["Authorization"] = f"Bearer {token}"
    return extra
