"""Gift card codes printed on the in-store cards (short, so cashiers can type them)."""
import random
import string

ALPHABET = string.ascii_uppercase + string.digits


def new_code(length=4):
    return "".join(random.choice(ALPHABET) for _ in range(length))


def issue_batch(count):
    return [new_code() for _ in range(count)]
