"""Job queue persisted in a sqlite file shared by the web app and the workers."""
import sqlite3

_open_writers = []  # closed by close_all() at worker shutdown


def connect(path, timeout=0.2):
    return sqlite3.connect(path, timeout=timeout, isolation_level=None)


def init(path):
    conn = connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS jobs (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    conn.close()


def enqueue(path, name):
    conn = connect(path)
    try:
        conn.execute("INSERT INTO jobs (name) VALUES (?)", (name,))
    finally:
        conn.close()


def names(path):
    conn = connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT name FROM jobs ORDER BY id")]
    finally:
        conn.close()


class BatchWriter:
    def __init__(self, path):
        self.conn = connect(path)
        _open_writers.append(self)

    def begin(self):
        self.conn.execute("BEGIN IMMEDIATE")

    def add(self, name):
        if not name:
            raise ValueError("job name required")
        self.conn.execute("INSERT INTO jobs (name) VALUES (?)", (name,))

    def commit(self):
        self.conn.execute("COMMIT")

    def abort(self):
        self.conn.execute("ROLLBACK")
        self.conn.close()
        _open_writers.remove(self)


def close_all():
    for w in list(_open_writers):
        w.conn.close()
        _open_writers.remove(w)
