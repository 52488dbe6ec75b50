"""Cache keys for compiled front-end assets; shared by all build workers via the remote cache."""
import hashlib


def cache_key(entry, features):
    enabled = set(features)
    material = entry + "|" + ",".join(enabled)
    return hashlib.sha256(material.encode()).hexdigest()[:16]
