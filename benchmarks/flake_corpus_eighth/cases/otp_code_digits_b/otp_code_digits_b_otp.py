"""One-time codes for the login second factor."""
import secrets


def new_code():
    return str(secrets.randbelow(10**6))
