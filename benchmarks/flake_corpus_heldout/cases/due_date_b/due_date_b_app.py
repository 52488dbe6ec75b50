from datetime import date, timedelta


def due_in(days, today=None):
    today = today or date.today()
    return today + timedelta(days=days)
