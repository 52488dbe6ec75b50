import math
import random

import delivery_zone_kmeans_b_kmeans as km

CITIES = [(10.0, 10.0), (50.0, 12.0), (30.0, 45.0)]


def stops():
    gen = random.Random(4)  # fixed, realistic-looking scatter around the three cities
    return [(cx + gen.uniform(-6, 6), cy + gen.uniform(-6, 6)) for cx, cy in CITIES for _ in range(25)]


def test_depots_found_near_city_centres():
    depots = km.kmeans(stops(), 3)
    for city in CITIES:
        assert min(math.dist(city, d) for d in depots) < 3.0, depots
