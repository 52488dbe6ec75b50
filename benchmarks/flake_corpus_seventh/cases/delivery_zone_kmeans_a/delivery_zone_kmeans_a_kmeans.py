"""Depot planning: cluster delivery stops with Lloyd's k-means, best of n_init random initialisations."""
import math
import random


def _assign(points, centres):
    return [min(range(len(centres)), key=lambda j: math.dist(p, centres[j])) for p in points]


def _inertia(points, centres, labels):
    return sum(math.dist(p, centres[j]) ** 2 for p, j in zip(points, labels))


def kmeans(points, k, n_init=1, iterations=20, rng=random):
    best = None
    for _ in range(n_init):
        centres = rng.sample(points, k)
        for _ in range(iterations):
            labels = _assign(points, centres)
            new = []
            for j in range(k):
                members = [p for p, lab in zip(points, labels) if lab == j]
                new.append(tuple(sum(c) / len(members) for c in zip(*members)) if members else centres[j])
            if new == centres:
                break
            centres = new
        labels = _assign(points, centres)
        score = _inertia(points, centres, labels)
        if best is None or score < best[0]:
            best = (score, centres)
    return sorted(best[1])
