import datetime

HAPPY_START = datetime.time(16, 30)
HAPPY_END = datetime.time(19, 0)


def price(base, now=None):
    now = now or datetime.datetime.now()
    if HAPPY_START <= now.time() < HAPPY_END:
        return round(base * 0.8, 2)
    return base
