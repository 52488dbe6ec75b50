"""JSON export of orders with per-call formatting overrides."""
import json

DEFAULTS = {"indent": None, "sort_keys": False, "ensure_ascii": True, "separators": (",", ":")}


def options(**overrides):
    opts = dict(DEFAULTS)
    opts.update(overrides)
    if opts["indent"] is not None and overrides.get("separators") is None:
        opts["separators"] = (",", ": ")
    return opts


def dump(obj, **overrides):
    return json.dumps(obj, **options(**overrides))
