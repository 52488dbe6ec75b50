"""User profiles, cached because the directory lookup is slow."""
import copy
import functools


@functools.lru_cache(maxsize=256)
def _lookup(user_id):
    return {"id": user_id, "name": f"user{user_id}", "roles": ["viewer"]}


def load_profile(user_id):
    return copy.deepcopy(_lookup(user_id))


def promote(user_id, role):
    profile = load_profile(user_id)
    profile["roles"].append(role)
    return profile
