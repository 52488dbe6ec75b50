from datetime import datetime, timezone

from invoice_date_b_app import new_invoice


def test_invoice_is_dated_today_utc():
    inv = new_invoice("acme")
    assert inv["date"] == datetime.now(timezone.utc).date().isoformat()
