"""Draw for an 8-team knockout bracket; teams are given in seed order."""
import random


def draw(teams):
    order = list(teams)
    random.shuffle(order)
    return order[:4], order[4:]
