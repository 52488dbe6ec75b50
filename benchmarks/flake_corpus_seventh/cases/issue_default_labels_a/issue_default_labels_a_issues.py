"""Issue intake: every new issue gets the project's default labels plus the reporter's labels."""
import functools
import json
import pathlib

CONFIG = pathlib.Path(__file__).with_name("issue_default_labels_a_tracker.json")


@functools.lru_cache(maxsize=None)
def default_labels():
    return json.loads(CONFIG.read_text())["default_labels"]  # read once per process


def new_issue(title, extra_labels=()):
    labels = default_labels()
    labels += list(extra_labels)
    return {"title": title, "labels": labels}
