import datetime

import daily_quota_local_date_a_quota as quota


def test_usage_counts_for_today():
    q = quota.Quota(limit=1000)
    q.record(3)
    assert q.used_on(datetime.datetime.now(datetime.timezone.utc).date()) == 3
