"""Subscription renewals."""
import calendar
from datetime import date


def add_month(d):
    return d.replace(month=d.month + 1)


def next_renewal(started_on=None):
    return add_month(started_on or date.today())
