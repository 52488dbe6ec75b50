"""Daily API quotas; the quota day is the UTC day."""
import collections
import datetime


class Quota:
    def __init__(self, limit):
        self.limit = limit
        self.used = collections.Counter()

    def record(self, calls):
        self.used[datetime.datetime.now(datetime.timezone.utc).date()] += calls

    def used_on(self, day):
        return self.used[day]
