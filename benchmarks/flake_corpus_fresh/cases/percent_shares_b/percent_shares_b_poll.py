import random


def random_votes():
    return {"yes": random.randint(1, 50), "no": random.randint(1, 50), "abstain": random.randint(1, 50)}


def shares(votes):
    total = sum(votes.values())
    return {k: round(100 * v / total) for k, v in votes.items()}
