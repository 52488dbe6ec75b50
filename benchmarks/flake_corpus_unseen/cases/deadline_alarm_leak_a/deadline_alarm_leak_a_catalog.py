"""Catalog export: fetches pages from the (here: simulated) product service."""
import time


def fetch_page(n):
    time.sleep(0.003)  # network round trip to the product service
    return [{"sku": f"P{n:03d}{i}", "price": 100 + i} for i in range(10)]


def export_catalog(pages=120):
    rows = []
    for n in range(pages):
        rows.extend(fetch_page(n))
    return rows
