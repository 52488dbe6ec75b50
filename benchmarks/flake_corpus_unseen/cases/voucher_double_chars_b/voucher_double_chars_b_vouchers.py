"""Gift voucher codes. Support reads them out over the phone, so doubled letters are banned."""
import secrets

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


def has_double(code):
    return any(a == b for a, b in zip(code, code[1:]))


def new_voucher(length=10):
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(length))
        if not has_double(code):
            return f"{code[:5]}-{code[5:]}"
