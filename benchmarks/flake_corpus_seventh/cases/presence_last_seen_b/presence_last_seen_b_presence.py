"""Chat presence: a user is online if the last heartbeat is less than five minutes old."""
from datetime import datetime, timedelta, timezone

ONLINE_WINDOW = timedelta(minutes=5)


class Presence:
    def __init__(self):
        self.last_seen = {}

    def heartbeat(self, user):
        self.last_seen[user] = datetime.utcnow()

    def is_online(self, user):
        seen = self.last_seen.get(user)
        if seen is None:
            return False
        return datetime.now() - seen < ONLINE_WINDOW
