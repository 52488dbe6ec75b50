import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def generate_password(length=8):
    chars = [secrets.choice(string.digits), secrets.choice(string.ascii_letters)]
    chars += [secrets.choice(ALPHABET) for _ in range(length - 2)]
    secrets.SystemRandom().shuffle(chars)
    return "".join(chars)
