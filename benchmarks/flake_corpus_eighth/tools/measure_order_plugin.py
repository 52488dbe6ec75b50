"""pytest plugin used by measure.py: MEASURE_ORDER=reverse reverses the collected items,
MEASURE_ORDER=shuffle:<n> shuffles them with random.Random(n) (like pytest-randomly, seed = run index)."""
import os
import random


def pytest_collection_modifyitems(session, config, items):
    order = os.environ.get("MEASURE_ORDER", "")
    if order == "reverse":
        items.reverse()
    elif order.startswith("shuffle:"):
        random.Random(int(order.split(":", 1)[1])).shuffle(items)
