"""One-time codes for the login second factor."""
import secrets


def new_code():
    return f"{secrets.randbelow(10**6):06d}"
