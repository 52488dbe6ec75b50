from datetime import date, datetime, timezone


def report_name():
    return f"report-{date.today().isoformat()}.csv"


def test_report_name_is_today():
    today_utc = datetime.now(timezone.utc).date()
    assert report_name() == f"report-{today_utc.isoformat()}.csv"
