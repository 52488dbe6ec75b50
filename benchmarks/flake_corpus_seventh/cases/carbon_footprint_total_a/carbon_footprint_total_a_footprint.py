"""Travel footprint in tonnes CO2e per booked activity (deduplicated: each activity counts once per trip)."""
import math

FACTORS = {"flight": 0.1, "hotel": 0.2, "train": 0.3, "taxi": 0.06}


def trip_footprint(activities):
    codes = set(activities)
    return math.fsum(FACTORS[c] for c in codes)
