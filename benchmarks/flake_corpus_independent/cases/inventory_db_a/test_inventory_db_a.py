import sqlite3

import pytest


@pytest.fixture
def conn():
    c = sqlite3.connect(":memory:")
    c.execute("CREATE TABLE items (sku TEXT PRIMARY KEY, qty INTEGER)")
    c.execute("INSERT INTO items VALUES ('A-1', 5)")
    yield c
    c.close()


def test_create_schema(conn):
    assert conn.execute("SELECT COUNT(*) FROM items").fetchone() == (1,)


def test_restock(conn):
    conn.execute("UPDATE items SET qty = qty + 10 WHERE sku = 'A-1'")
    (qty,) = conn.execute("SELECT qty FROM items WHERE sku = 'A-1'").fetchone()
    assert qty == 15
