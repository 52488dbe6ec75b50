import random


def backoff_delays(attempts, base=1.0):
    return [base * 2 ** i * (1 + random.uniform(0, 0.5)) for i in range(attempts)]
