import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def generate_password(length=8):
    return "".join(secrets.choice(ALPHABET) for _ in range(length))
