import sqlite3

_conn = sqlite3.connect(":memory:")


def test_create_schema():
    _conn.execute("CREATE TABLE items (sku TEXT PRIMARY KEY, qty INTEGER)")
    _conn.execute("INSERT INTO items VALUES ('A-1', 5)")
    assert _conn.execute("SELECT COUNT(*) FROM items").fetchone() == (1,)


def test_restock():
    _conn.execute("UPDATE items SET qty = qty + 10 WHERE sku = 'A-1'")
    (qty,) = _conn.execute("SELECT qty FROM items WHERE sku = 'A-1'").fetchone()
    assert qty == 15
