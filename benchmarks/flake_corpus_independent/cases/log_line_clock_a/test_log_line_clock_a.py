import time


def format_log_line(msg, ts=None):
    ts = time.time() if ts is None else ts
    return time.strftime("%H:%M", time.gmtime(ts)) + " " + msg


def test_log_line_prefix():
    ts = time.time()
    expected = time.strftime("%H:%M", time.gmtime(ts))
    assert format_log_line("started", ts) == f"{expected} started"
