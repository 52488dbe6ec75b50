import datetime


def upcoming_days(today=None):
    today = today or datetime.date.today()
    days = [today + datetime.timedelta(days=i) for i in range(7)]
    return [d for d in days if d.month == today.month]
