"""Prorated charges for plan changes mid-month."""
import calendar


def prorate(monthly_cents, days_used, today):
    return round(monthly_cents * days_used / 31)
