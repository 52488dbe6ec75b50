import time


def hours_between(start, end):
    return (time.mktime(end.timetuple()) - time.mktime(start.timetuple())) / 3600
