from datetime import date


def due_in(days, today=None):
    today = today or date.today()
    return today.replace(day=today.day + days)
