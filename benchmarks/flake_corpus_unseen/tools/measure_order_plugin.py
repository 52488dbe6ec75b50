"""pytest plugin used by measure.py: MEASURE_ORDER=reverse reverses the collected items."""
import os


def pytest_collection_modifyitems(session, config, items):
    if os.environ.get("MEASURE_ORDER") == "reverse":
        items.reverse()
