"""Annual statements, dated on the customer's billing day in November (fiscal year end)."""
import calendar
import datetime


def annual_statement_date(billing_day, year):
    return datetime.date(year, 11, billing_day)
