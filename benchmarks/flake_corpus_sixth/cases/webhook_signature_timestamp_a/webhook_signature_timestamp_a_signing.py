"""Signed outgoing webhooks: HMAC over '<unix-seconds>.<body>'."""
import hashlib
import hmac
import time
import zlib

SECRET = b"whsec_test_3f9a"


def sign(body, ts=None):
    ts = int(time.time()) if ts is None else ts
    return ts, hmac.new(SECRET, f"{ts}.".encode() + body, hashlib.sha256).hexdigest()


def verify(body, signature, ts=None, tolerance=300):
    if ts is None:
        ts = int(time.time())
    if abs(time.time() - ts) > tolerance:
        return False
    return hmac.compare_digest(sign(body, ts)[1], signature)


def deliver(body):
    """What the HTTP hop does to the body: gzip on the way out, gunzip at the receiver."""
    return zlib.decompress(zlib.compress(body, 9))
