"""Weekly e-mail digest of upcoming deadlines."""


def upcoming(deadlines, today, days=7):
    return [d for d in deadlines if 0 <= (d - today).days <= days]
