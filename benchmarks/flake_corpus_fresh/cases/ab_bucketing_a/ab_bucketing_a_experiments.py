import random
import zlib


def assign(user_id, split=0.5):
    """Assign a user to experiment arm A or B."""
    return "A" if random.random() < split else "B"
