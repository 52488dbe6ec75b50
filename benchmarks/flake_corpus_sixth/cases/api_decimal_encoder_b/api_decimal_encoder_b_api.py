"""JSON rendering for the public API; integrations may register encoders for their own types."""
import json
from decimal import Decimal

ENCODERS = {}


def register_encoder(tp, fn):
    ENCODERS[tp] = fn


def _default(obj):
    for tp, fn in ENCODERS.items():
        if isinstance(obj, tp):
            return fn(obj)
    if isinstance(obj, Decimal):
        return float(obj)
    raise TypeError(f"cannot encode {type(obj).__name__}")


def dumps(obj):
    return json.dumps(obj, default=_default, sort_keys=True)
