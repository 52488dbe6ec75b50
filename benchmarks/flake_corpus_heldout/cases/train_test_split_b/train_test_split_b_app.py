import random


def split(items, train_fraction=0.8):
    train, test = [], []
    for item in items:
        (train if random.random() < train_fraction else test).append(item)
    return train, test
