"""Product catalog shipped as a read-only sqlite database next to the code."""
import sqlite3
from pathlib import Path  # noqa: F401

DB_NAME = "catalog_db_cwd_b_catalog.sqlite"


def open_catalog():
    return sqlite3.connect(f"file:{Path(__file__).with_name(DB_NAME)}?mode=ro", uri=True)


def categories():
    with open_catalog() as conn:
        return [r[0] for r in conn.execute("SELECT name FROM categories ORDER BY name")]
