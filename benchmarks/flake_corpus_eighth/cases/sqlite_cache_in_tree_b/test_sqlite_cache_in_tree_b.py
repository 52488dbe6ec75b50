import pathlib

import sqlite_cache_in_tree_b_cache as cache

PRICES = [(f"SKU{i}", i * 3) for i in range(10000)]


def test_cache_rebuild_counts_rows(tmp_path):
    db = pathlib.Path(__file__).parent / "sqlite_cache_in_tree_b_prices.sqlite3"
    assert cache.rebuild(db, PRICES) == 10000
