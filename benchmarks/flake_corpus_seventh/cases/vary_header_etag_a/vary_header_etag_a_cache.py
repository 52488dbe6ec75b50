"""HTTP caching: the ETag of a cached representation hashes the body and the request headers named in Vary.
The ETag must be identical on every app worker, or the CDN revalidates forever."""
import hashlib


def vary_key(request_headers, vary):
    names = {h.strip().lower() for h in vary.split(",") if h.strip()}
    headers = {k.lower(): v for k, v in request_headers.items()}
    parts = [f"{n}={headers.get(n, '')}" for n in names]
    return "&".join(parts)


def etag(body, request_headers, vary):
    digest = hashlib.sha1(body + b"\0" + vary_key(request_headers, vary).encode()).hexdigest()[:16]
    return f'W/"{digest}"'
