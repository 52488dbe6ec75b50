from datetime import datetime

ROTA = {"day": "ops-day@example.com", "night": "pager@example.com"}


def current_contact(now=None):
    now = now or datetime.now()
    return ROTA["day"] if 8 <= now.hour < 20 else ROTA["night"]


def test_current_contact():
    assert current_contact() == "ops-day@example.com"
