import random


def validate(row):
    return "@" in row["email"]


def preview(rows, k=5):
    """Rows shown in the import wizard."""
    bad = [r for r in rows if not validate(r)]
    good = [r for r in rows if validate(r)]
    picked = bad[:2]
    return picked + random.sample(good, k - len(picked))
