"""Minimal HS256 JWTs for the internal API."""
import base64
import hashlib
import hmac
import json
import time


class InvalidToken(Exception):
    pass


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def issue(sub, secret, ttl=900):
    now = round(time.time())
    claims = {"sub": sub, "iat": now, "nbf": now, "exp": now + ttl}
    head = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = _b64(json.dumps(claims).encode())
    sig = _b64(hmac.new(secret, f"{head}.{body}".encode(), hashlib.sha256).digest())
    return f"{head}.{body}.{sig}"


def verify(token, secret):
    head, body, sig = token.split(".")
    expected = _b64(hmac.new(secret, f"{head}.{body}".encode(), hashlib.sha256).digest())
    if not hmac.compare_digest(sig, expected):
        raise InvalidToken("bad signature")
    claims = json.loads(_unb64(body))
    now = time.time()
    if now < claims["nbf"]:
        raise InvalidToken("token not yet valid")
    if now >= claims["exp"]:
        raise InvalidToken("token expired")
    return claims
