import random


def validate(row):
    return "@" in row["email"]


def preview(rows, k=5):
    """Rows shown in the import wizard."""
    return random.sample(rows, k)
