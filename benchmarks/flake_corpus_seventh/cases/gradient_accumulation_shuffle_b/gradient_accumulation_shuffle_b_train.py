"""Gradient accumulation for a 1-parameter least-squares model y = w * x."""
import random


def grad(w, batch):
    return sum(2 * x * (w * x - y) for x, y in batch)


def accumulated_grad(w, data, batch_size=2, rng=random):
    data = list(data)
    rng.shuffle(data)  # each epoch sees the batches in a new order
    total = 0.0
    for i in range(0, len(data), batch_size):
        total += grad(w, data[i:i + batch_size])
    return total
