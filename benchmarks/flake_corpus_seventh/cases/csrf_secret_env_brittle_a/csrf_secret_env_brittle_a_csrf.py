"""CSRF tokens: HMAC of the session id with the application secret."""
import hashlib
import hmac
import os


def _secret():
    return os.environ["APP_SECRET_KEY"].encode()


def make_token(session_id):
    return hmac.new(_secret(), session_id.encode(), hashlib.sha256).hexdigest()[:32]


def check_token(session_id, token):
    return hmac.compare_digest(make_token(session_id), token)
