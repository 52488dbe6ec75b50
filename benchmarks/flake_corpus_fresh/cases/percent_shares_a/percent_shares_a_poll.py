import random


def random_votes():
    return {"yes": random.randint(1, 50), "no": random.randint(1, 50), "abstain": random.randint(1, 50)}


def shares(votes):
    total = sum(votes.values())
    exact = {k: 100 * v / total for k, v in votes.items()}
    out = {k: int(x) for k, x in exact.items()}
    for k in sorted(exact, key=lambda k: exact[k] - out[k], reverse=True)[: 100 - sum(out.values())]:
        out[k] += 1
    return out
