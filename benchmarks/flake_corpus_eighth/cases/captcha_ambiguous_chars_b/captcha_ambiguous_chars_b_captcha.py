"""Text captcha for the guest comment form."""
import random
import string

ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0")


def captcha_text(n=5):
    return "".join(random.choice(ALPHABET) for _ in range(n))
