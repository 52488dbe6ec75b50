"""Event log stored in sqlite."""
import sqlite3


def connect(path=":memory:"):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS events (name TEXT, at)")
    return conn


def record(conn, name, at):
    conn.execute("INSERT INTO events VALUES (?, ?)", (name, at))


def timestamps(conn):
    return [row[0] for row in conn.execute("SELECT at FROM events ORDER BY rowid")]


def epoch_adapter(dt):
    return dt.timestamp()
