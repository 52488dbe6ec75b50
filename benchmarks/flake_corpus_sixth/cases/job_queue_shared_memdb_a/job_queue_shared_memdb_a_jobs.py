"""A job queue on a shared-cache in-memory SQLite database (one per process, shared by threads)."""
import sqlite3

URI = "file:job_queue_shared_memdb_a_queue?mode=memory&cache=shared"
_workers = []


def connect():
    return sqlite3.connect(URI, uri=True, check_same_thread=False)


def init_queue(conn):
    conn.execute("CREATE TABLE jobs (id INTEGER PRIMARY KEY, name TEXT, state TEXT DEFAULT 'queued')")
    conn.commit()


def enqueue(conn, name):
    conn.execute("INSERT INTO jobs(name) VALUES (?)", (name,))
    conn.commit()


def queued(conn):
    return conn.execute("SELECT COUNT(*) FROM jobs WHERE state = 'queued'").fetchone()[0]


class Worker:
    def __init__(self):
        self.conn = connect()
        _workers.append(self)

    def claim(self):
        row = self.conn.execute("SELECT id, name FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1").fetchone()
        self.conn.execute("UPDATE jobs SET state = 'running' WHERE id = ?", (row[0],))
        self.conn.commit()
        return row[1]


def stop_all():
    while _workers:
        _workers.pop().conn.close()
