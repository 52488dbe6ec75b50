"""'Remind me tomorrow' for the task app."""
import datetime


def same_time_tomorrow(now):
    return (now + datetime.timedelta(days=1)).astimezone()
