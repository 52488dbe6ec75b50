import sqlite3

from status_filter_sql_a_query import status_filter


def test_status_filter_query():
    sql, params = status_filter(["active", "trial", "active"])
    assert sql == "SELECT id, email FROM accounts WHERE status IN (?, ?) ORDER BY id"
    assert params == ["active", "trial"]


def test_status_filter_runs():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT, status TEXT)")
    conn.executemany("INSERT INTO accounts (email, status) VALUES (?, ?)",
                     [("a@x", "active"), ("b@x", "closed"), ("c@x", "trial")])
    assert [r[1] for r in conn.execute(*status_filter(["trial", "active"]))] == ["a@x", "c@x"]
