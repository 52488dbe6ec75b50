"""Guest Wi-Fi: a new passphrase is generated every morning and pushed to the router."""
import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def meets_policy(pw):
    return (len(pw) >= 12 and any(c.islower() for c in pw) and any(c.isupper() for c in pw)
            and any(c.isdigit() for c in pw))


def guest_passphrase(length=12):
    while True:  # recipe from the secrets docs: draw until the policy holds
        pw = "".join(secrets.choice(ALPHABET) for _ in range(length))
        if meets_policy(pw):
            return pw
