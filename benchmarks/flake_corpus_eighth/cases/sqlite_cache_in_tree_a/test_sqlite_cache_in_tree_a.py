import pathlib

import sqlite_cache_in_tree_a_cache as cache

PRICES = [(f"SKU{i}", i * 3) for i in range(10000)]


def test_cache_rebuild_counts_rows(tmp_path):
    db = tmp_path / "sqlite_cache_in_tree_a_prices.sqlite3"
    assert cache.rebuild(db, PRICES) == 10000
