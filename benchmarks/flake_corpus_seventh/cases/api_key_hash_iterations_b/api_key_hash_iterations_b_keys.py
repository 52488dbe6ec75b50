"""API keys are stored as PBKDF2 hashes in a self-describing format: pbkdf2_<alg>$<iterations>$<salt>$<hash>."""
import hashlib
import hmac
import os


class KeyHasher:
    algorithm = "sha256"
    iterations = 120_000  # security policy; old hashes keep their own count and still verify

    def hash(self, key, salt=None):
        salt = salt or os.urandom(8)
        dk = hashlib.pbkdf2_hmac(self.algorithm, key.encode(), salt, self.iterations)
        return f"pbkdf2_{self.algorithm}${self.iterations}${salt.hex()}${dk.hex()}"

    def verify(self, key, stored):
        _, iterations, salt, digest = stored.split("$")
        dk = hashlib.pbkdf2_hmac(self.algorithm, key.encode(), bytes.fromhex(salt), int(iterations))
        return hmac.compare_digest(dk.hex(), digest)

    def needs_rehash(self, stored):
        return int(stored.split("$")[1]) < self.iterations
