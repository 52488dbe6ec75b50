"""Text captcha for the guest comment form."""
import random
import string

ALPHABET = string.ascii_uppercase + string.digits


def captcha_text(n=5):
    return "".join(random.choice(ALPHABET) for _ in range(n))
