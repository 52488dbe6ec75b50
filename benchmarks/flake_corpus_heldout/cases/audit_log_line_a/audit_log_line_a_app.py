import hashlib
from datetime import datetime


def pseudonym(user):
    return hashlib.pbkdf2_hmac("sha256", user.encode(), b"audit", 60000).hex()[:10]


def audit_line(user, action, now=None):
    stamp = (now or datetime.now()).strftime("%H:%M:%S")
    return f"{stamp} {pseudonym(user)} {action}"
