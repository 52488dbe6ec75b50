import math
import random


class StreamingMean:
    def __init__(self):
        self.n = 0
        self.mean = 0.0

    def add(self, x):
        self.n += 1
        self.mean += (x - self.mean) / self.n


def readings(n=40):
    return [random.uniform(0, 100) for _ in range(n)]


def close_enough(a, b):
    return abs(a - b) <= 2e-14
