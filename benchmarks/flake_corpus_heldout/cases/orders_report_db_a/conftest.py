import sqlite3

import pytest


@pytest.fixture(scope="module")
def db():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE orders(id INTEGER PRIMARY KEY, customer TEXT, total INTEGER)")
    yield conn
    conn.close()
