import json


def load_rates(path):
    with open(path) as fh:
        return json.load(fh)
