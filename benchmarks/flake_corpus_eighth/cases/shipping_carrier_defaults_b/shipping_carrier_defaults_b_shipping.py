"""Carrier settings for the checkout's shipping step."""
_DEFAULTS = {"carrier": "dhl", "insurance": False, "max_weight_kg": 31.5}


def carrier_settings(overrides=None):
    settings = _DEFAULTS
    if overrides:
        settings.update(overrides)
    return settings
