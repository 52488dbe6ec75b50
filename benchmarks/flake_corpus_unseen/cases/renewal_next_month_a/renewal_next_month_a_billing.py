"""Subscription renewals."""
import calendar
from datetime import date


def add_month(d):
    year, month = divmod(d.month, 12)
    year, month = d.year + year, month + 1
    return d.replace(year=year, month=month, day=min(d.day, calendar.monthrange(year, month)[1]))


def next_renewal(started_on=None):
    return add_month(started_on or date.today())
