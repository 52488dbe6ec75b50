"""Support desk: chat is offered Monday-Friday 08:00-18:00 UTC."""
from datetime import timezone

OPEN_HOUR, CLOSE_HOUR = 8, 18


def is_open(at):
    local = at.astimezone()
    return local.weekday() < 5 and OPEN_HOUR <= local.hour < CLOSE_HOUR
