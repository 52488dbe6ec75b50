"""Ad server: picks one creative per impression according to the campaign weights."""
import collections
import random


class Rotation:
    def __init__(self, creatives, rng=None):
        self.names = [c for c, _ in creatives]
        self.weights = [w for _, w in creatives]
        self.rng = rng or random

    def pick(self):
        return self.rng.choices(self.names, self.weights)[0]

    def simulate(self, impressions):
        return collections.Counter(self.pick() for _ in range(impressions))
