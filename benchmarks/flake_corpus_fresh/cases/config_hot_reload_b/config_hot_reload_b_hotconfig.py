import json
import os
import time


def write_config(path, data):
    text = json.dumps(data)
    half = len(text) // 2
    tmp = f"{path}.tmp"
    with open(tmp, "w") as fh:
        fh.write(text[:half])
        fh.flush()
        fh.write(text[half:])
    os.replace(tmp, path)


def read_config(path):
    with open(path) as fh:
        return json.load(fh)


def rewriter(path, times, pause):
    for version in range(times):
        time.sleep(pause)
        write_config(path, {"version": version, "workers": 4, "feature_x": True})
