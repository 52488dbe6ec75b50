"""Test-data factories (like factory_boy's fuzzy attributes)."""
import random

CATALOG = {"PEN-BLK": "0.89", "PAD-A4": "2.49", "INK-CYN": "17.90", "CLIP-50": "1.15", "TAPE-19": "0.99"}


def make_po(lines=3, rng=random):
    skus = rng.sample(sorted(CATALOG), lines)
    return {
        "supplier": "Acme Office Supplies",
        "lines": [{"sku": sku, "qty": rng.randint(1, 20), "unit_price": CATALOG[sku]} for sku in skus],
    }
