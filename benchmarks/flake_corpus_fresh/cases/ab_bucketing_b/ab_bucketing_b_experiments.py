import random
import zlib


def assign(user_id, split=0.5):
    """Assign a user to experiment arm A or B."""
    bucket = zlib.crc32(f"checkout-v2:{user_id}".encode()) % 1000
    return "A" if bucket < split * 1000 else "B"
