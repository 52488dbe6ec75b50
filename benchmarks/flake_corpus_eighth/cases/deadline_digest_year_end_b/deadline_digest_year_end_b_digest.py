"""Weekly e-mail digest of upcoming deadlines."""


def upcoming(deadlines, today, days=7):
    start = today.timetuple().tm_yday
    return [d for d in deadlines if 0 <= d.timetuple().tm_yday - start <= days]
