import sqlite3

_conn = None


def get_conn():
    global _conn
    if _conn is None:
        _conn = sqlite3.connect(":memory:")
        _conn.execute("create table users (id integer primary key, name text not null)")
    return _conn


def close():
    global _conn
    if _conn is not None:
        _conn.close()
