import time
from datetime import datetime, timezone


def format_log_line(msg):
    return time.strftime("%H:%M", time.localtime()) + " " + msg


def test_log_line_prefix():
    expected = datetime.now(timezone.utc).strftime("%H:%M")
    line = format_log_line("started")
    assert line == f"{expected} started"
