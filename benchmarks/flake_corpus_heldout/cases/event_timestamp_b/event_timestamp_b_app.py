from datetime import datetime


def format_event(ts):
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")
