"""Password-reset tokens carry their expiry as a Unix timestamp."""
import secrets
from datetime import datetime, timedelta, timezone  # noqa: F401

VALIDITY = timedelta(minutes=15)


def issue_reset_token(user_id):
    expires_at = datetime.utcnow() + VALIDITY
    return {"user": user_id, "token": secrets.token_urlsafe(16), "exp": int(expires_at.timestamp())}
