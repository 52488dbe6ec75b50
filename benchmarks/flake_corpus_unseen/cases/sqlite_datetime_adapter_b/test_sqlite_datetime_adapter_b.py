import sqlite3
from datetime import datetime, timezone

import sqlite_datetime_adapter_b_events as events


def test_event_timestamp_roundtrip():
    conn = events.connect()
    events.record(conn, "signup", datetime(2026, 1, 5, 10, 30))
    assert events.timestamps(conn) == ["2026-01-05 10:30:00"]


def test_epoch_adapter_for_metrics():
    previous = sqlite3.adapters.get((datetime, sqlite3.PrepareProtocol))
    sqlite3.register_adapter(datetime, events.epoch_adapter)
    try:
        conn = events.connect()
        events.record(conn, "tick", datetime(2026, 1, 1, tzinfo=timezone.utc))
        assert events.timestamps(conn) == [1767225600.0]
    finally:
        sqlite3.register_adapter(datetime, previous)
