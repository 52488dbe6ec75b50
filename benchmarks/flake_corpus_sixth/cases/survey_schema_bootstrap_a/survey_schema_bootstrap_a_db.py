"""Storage of survey answers."""
import sqlite3

conn = sqlite3.connect(":memory:")


def connect():
    return conn


def bootstrap(db):
    db.execute("CREATE TABLE answers (respondent TEXT, question INTEGER, answer TEXT)")


def record(db, respondent, question, answer):
    db.execute("INSERT INTO answers VALUES (?, ?, ?)", (respondent, question, answer))


def count(db):
    return db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
