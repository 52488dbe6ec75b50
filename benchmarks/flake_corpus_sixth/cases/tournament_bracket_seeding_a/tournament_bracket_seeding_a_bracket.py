"""Draw for an 8-team knockout bracket; teams are given in seed order."""
import random


def draw(teams):
    rest = list(teams[2:])
    random.shuffle(rest)
    return [teams[0]] + rest[:3], [teams[1]] + rest[3:]
