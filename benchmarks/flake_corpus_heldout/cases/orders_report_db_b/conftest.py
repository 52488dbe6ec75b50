import sqlite3

import pytest


@pytest.fixture
def db():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE orders(id INTEGER PRIMARY KEY, customer TEXT, total INTEGER)")
    yield conn
    conn.close()


@pytest.fixture
def seeded_db(db):
    db.execute("INSERT INTO orders(customer, total) VALUES ('ada', 30), ('grace', 12)")
    return db
