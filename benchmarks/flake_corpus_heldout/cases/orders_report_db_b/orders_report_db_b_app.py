def insert_order(conn, customer, total):
    conn.execute("INSERT INTO orders(customer, total) VALUES (?, ?)", (customer, total))


def report(conn):
    count, total = conn.execute("SELECT COUNT(*), COALESCE(SUM(total), 0) FROM orders").fetchone()
    return {"count": count, "total": total}
