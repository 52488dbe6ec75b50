"""Group membership sync against the HR directory."""


def membership_diff(old, new):
    old, new = set(old), set(new)
    return {"added": list(new - old), "removed": list(old - new)}
