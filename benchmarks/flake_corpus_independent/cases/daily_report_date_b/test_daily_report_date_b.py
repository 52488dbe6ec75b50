from datetime import datetime, timezone


def report_name(now=None):
    now = now or datetime.now(timezone.utc)
    return f"report-{now.date().isoformat()}.csv"


def test_report_name_is_today():
    now = datetime.now(timezone.utc)
    assert report_name(now) == f"report-{now.date().isoformat()}.csv"
