"""A/B experiment assignment."""
import hashlib
import random


def arm(experiment, user_id):
    digest = hashlib.sha256(f"{experiment}:{user_id}".encode()).digest()
    return "A" if digest[0] < 128 else "B"
