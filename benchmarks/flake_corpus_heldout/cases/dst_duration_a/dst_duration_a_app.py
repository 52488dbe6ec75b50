import calendar


def hours_between(start, end):
    return (calendar.timegm(end.timetuple()) - calendar.timegm(start.timetuple())) / 3600
