import json

_flags = {}


def load(path):
    with open(path) as fh:
        _flags.update(json.load(fh))


def enabled(name):
    return bool(_flags.get(name, False))
