"""ETag for a bundle of static assets (deduplicated chunks)."""
import hashlib


def bundle_etag(chunks):
    unique = set(chunks)
    h = hashlib.sha256()
    for chunk in unique:
        h.update(chunk)
    return h.hexdigest()[:16]
