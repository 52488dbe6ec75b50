import random


def backoff_delays(attempts, base=1.0):
    return [base * 2 ** i + random.uniform(0, 2 * base) for i in range(attempts)]
