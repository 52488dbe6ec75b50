import secrets

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
AMBIGUOUS = set("O0I1")


def new_code(length=4):
    return "".join(secrets.choice(ALPHABET) for _ in range(length))
