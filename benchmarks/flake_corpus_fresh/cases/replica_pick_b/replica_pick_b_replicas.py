LATENCY_MS = {
    "db-us-1": 4, "db-us-2": 5, "db-us-3": 6, "db-eu-1": 9,
    "db-eu-2": 11, "db-eu-3": 480, "db-ap-1": 14, "db-ap-2": 15,
}


def healthy_replicas(down=()):
    return set(LATENCY_MS) - set(down)


def pick_replica(down=()):
    candidates = healthy_replicas(down)
    return next(iter(candidates))
