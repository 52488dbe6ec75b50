import random


def split(items, train_fraction=0.8):
    items = list(items)
    random.shuffle(items)
    cut = min(max(1, round(len(items) * train_fraction)), len(items) - 1)
    return items[:cut], items[cut:]
