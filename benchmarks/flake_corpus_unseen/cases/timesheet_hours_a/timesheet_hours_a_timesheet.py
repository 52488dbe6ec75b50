"""Consultancy timesheets: time is booked in 6-minute units (tenths of an hour)."""
from fractions import Fraction


def hours(entries):
    """Entries are tenths of an hour as floats, e.g. 0.3 for 18 minutes."""
    return float(sum(Fraction(e).limit_denominator(10) for e in entries))


def hours_from_minutes(minutes):
    return minutes / 60
