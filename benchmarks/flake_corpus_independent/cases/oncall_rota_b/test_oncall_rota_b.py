from datetime import datetime, timezone

ROTA = {"day": "ops-day@example.com", "night": "pager@example.com"}


def current_contact(now=None):
    now = now or datetime.now()
    return ROTA["day"] if 8 <= now.hour < 20 else ROTA["night"]


def test_current_contact():
    assert current_contact(datetime(2024, 3, 5, 10, 0, tzinfo=timezone.utc)) == "ops-day@example.com"
    assert current_contact(datetime(2024, 3, 5, 23, 0, tzinfo=timezone.utc)) == "pager@example.com"
