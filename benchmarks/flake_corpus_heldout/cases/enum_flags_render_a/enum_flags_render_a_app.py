import enum


class Channel(enum.Enum):
    EMAIL = "email"
    SMS = "sms"
    PUSH = "push"


def enabled_channels(prefs):
    return {Channel(p) for p in prefs}


def render(channels):
    return " + ".join(c.value for c in Channel if c in channels)
