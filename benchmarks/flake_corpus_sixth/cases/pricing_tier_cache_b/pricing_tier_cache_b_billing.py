"""Plan limits, read once from the environment (deployment sets BILLING_TIER)."""
import functools
import os

SEATS = {"free": 3, "team": 25, "enterprise": 1000}


@functools.lru_cache(maxsize=None)
def plan_limits():
    tier = os.environ.get("BILLING_TIER", "free")
    return {"tier": tier, "seats": SEATS[tier]}
