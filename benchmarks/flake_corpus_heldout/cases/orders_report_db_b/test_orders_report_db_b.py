from orders_report_db_b_app import insert_order, report


def test_insert_orders(db):
    insert_order(db, "ada", 30)
    insert_order(db, "grace", 12)
    assert db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] >= 2


def test_report_counts_orders(seeded_db):
    assert report(seeded_db) == {"count": 2, "total": 42}
