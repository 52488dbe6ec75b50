import random


def new_ticket_ids(n):
    return [random.randint(0, 999) for _ in range(n)]
