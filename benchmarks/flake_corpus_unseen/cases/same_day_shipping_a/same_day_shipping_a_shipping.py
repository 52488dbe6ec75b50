"""Dispatch date promise shown at checkout."""
from datetime import date, datetime, time, timedelta  # noqa: F401

CUTOFF = time(17, 0)


def dispatch_date(placed_at):
    if placed_at.time() < CUTOFF:
        return placed_at.date()
    return placed_at.date() + timedelta(days=1)


def checkout_promise(now=None):
    now = now or datetime.now()
    return {"dispatch": dispatch_date(now), "message": f"Ships {dispatch_date(now):%a %d %b}"}
