"""A/B experiment assignment."""
import hashlib
import random


def arm(experiment, user_id):
    return "A" if random.random() < 0.5 else "B"
