import random


def new_ticket_ids(n):
    return random.sample(range(1000), n)
