"""pytest plugin used only by measure.py: MEASURE_ORDER=reverse|twice changes the collected order."""
import os

import pytest


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    mode = os.environ.get("MEASURE_ORDER", "")
    if mode == "reverse":
        items.reverse()
    elif mode == "twice":
        items[:] = list(items) + list(items)
