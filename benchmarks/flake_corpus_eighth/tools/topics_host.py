# Calendar (date and clock position, time zones, DST) and privilege (root vs unprivileged) topics.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

CAL = ["ft-31st", "ft-leap", "ft-june", "ft-yearend", "ft-dst-berlin", "ft-night", "ft-east12-morning"]

# -------------------------------------------------------------------------------------------- calendar
T.append(dict(
    topic="annual_statement_day", cls="calendar", test="test_statement_in_november",
    trigger="calendar: the annual statement is dated date(year, 11, billing_day) with billing_day = the signup day (today); November has 30 days, so it raises ValueError only when the test runs on the 31st of a month",
    robust="any date (day clamped to the month's length)",
    conds=CAL,
    files={
"CID_billing.py": r'''
"""Annual statements, dated on the customer's billing day in November (fiscal year end)."""
import calendar
import datetime


def annual_statement_date(billing_day, year):
    return datetime.date(year, 11, billing_day)  #@F
    return datetime.date(year, 11, min(billing_day, calendar.monthrange(year, 11)[1]))  #@S
''',
"test_CID.py": r'''
import datetime

import CID_billing as billing


def test_statement_in_november():
    signup = datetime.date.today()
    statement = billing.annual_statement_date(signup.day, signup.year)
    assert (statement.year, statement.month) == (signup.year, 11)
''',
    }))

T.append(dict(
    topic="membership_renewal_leap_day", cls="calendar", test="test_renewal_one_year_later",
    trigger="calendar: renewal = joined.replace(year=joined.year + 1) with joined = today; raises ValueError when the test runs on 29 February",
    robust="any date (29 February renews on 28 February)",
    conds=CAL,
    files={
"CID_members.py": r'''
"""Club memberships renew on the anniversary of joining."""
import datetime


def renewal_date(joined):
    return joined.replace(year=joined.year + 1)  #@F
    try:  #@S
        return joined.replace(year=joined.year + 1)  #@S
    except ValueError:  # 29 February  #@S
        return joined.replace(year=joined.year + 1, day=28)  #@S
''',
"test_CID.py": r'''
import datetime

import CID_members as members


def test_renewal_one_year_later():
    joined = datetime.date.today()
    renewal = members.renewal_date(joined)
    assert (renewal - joined).days in (365, 366)
''',
    }))

T.append(dict(
    topic="prorated_month_charge", cls="calendar", test="test_full_month_costs_monthly_price",
    trigger="calendar: proration divides by 31 days; the test charges the current month's full length, so it fails in 30-day months (and February), passes in 31-day months",
    robust="any date (divides by the month's real length)",
    conds=CAL,
    files={
"CID_prorate.py": r'''
"""Prorated charges for plan changes mid-month."""
import calendar


def prorate(monthly_cents, days_used, today):
    return round(monthly_cents * days_used / 31)  #@F
    return round(monthly_cents * days_used / calendar.monthrange(today.year, today.month)[1])  #@S
''',
"test_CID.py": r'''
import calendar
import datetime

import CID_prorate as prorate


def test_full_month_costs_monthly_price():
    today = datetime.date.today()
    days = calendar.monthrange(today.year, today.month)[1]
    assert prorate.prorate(3100, days, today) == 3100
''',
    }))

T.append(dict(
    topic="deadline_digest_year_end", cls="calendar", test="test_digest_lists_deadline_in_three_days",
    trigger="calendar: 'due within 7 days' compares day-of-year numbers, so a deadline 3 days ahead that falls in the next year is left out; fails from 29 to 31 December",
    robust="any date (date difference in days)",
    conds=CAL,
    files={
"CID_digest.py": r'''
"""Weekly e-mail digest of upcoming deadlines."""


def upcoming(deadlines, today, days=7):
    start = today.timetuple().tm_yday  #@F
    return [d for d in deadlines if 0 <= d.timetuple().tm_yday - start <= days]  #@F
    return [d for d in deadlines if 0 <= (d - today).days <= days]  #@S
''',
"test_CID.py": r'''
import datetime

import CID_digest as digest


def test_digest_lists_deadline_in_three_days():
    today = datetime.date.today()
    soon, later = today + datetime.timedelta(days=3), today + datetime.timedelta(days=40)
    assert digest.upcoming([later, soon], today) == [soon]
''',
    }))

T.append(dict(
    topic="reminder_same_time_tomorrow", cls="calendar", test="test_reminder_keeps_wall_clock_time",
    trigger="calendar/DST: 'same time tomorrow' adds 24 h to an aware datetime with the fixed UTC offset of now and converts back to local time; in a zone with DST (TZ=Europe/Berlin) it is an hour off when a DST change falls within the next 24 h",
    robust="any date and zone (wall-clock arithmetic on the naive local time, then localised)",
    conds=CAL,
    files={
"CID_remind.py": r'''
"""'Remind me tomorrow' for the task app."""
import datetime


def same_time_tomorrow(now):
    return (now + datetime.timedelta(days=1)).astimezone()  #@F
    return (now.replace(tzinfo=None) + datetime.timedelta(days=1)).astimezone()  #@S
''',
"test_CID.py": r'''
import datetime

import CID_remind as remind


def test_reminder_keeps_wall_clock_time():
    now = datetime.datetime.now().astimezone().replace(second=0, microsecond=0)
    reminder = remind.same_time_tomorrow(now)
    assert reminder.date() == now.date() + datetime.timedelta(days=1)
    assert (reminder.hour, reminder.minute) == (now.hour, now.minute)
''',
    }))

T.append(dict(
    topic="daily_quota_local_date", cls="calendar", test="test_usage_counts_for_today",
    trigger="time zone + clock position: usage is recorded under date.today() (local) but read back under today's UTC date; fails whenever the local date differs from the UTC date (TZ east of UTC after local midnight, west of UTC late in the UTC day)",
    robust="any zone and clock (recorded under the UTC date)",
    conds=CAL + ["tz-east12", "tz-west5", "tz-berlin"],
    files={
"CID_quota.py": r'''
"""Daily API quotas; the quota day is the UTC day."""
import collections
import datetime


class Quota:
    def __init__(self, limit):
        self.limit = limit
        self.used = collections.Counter()

    def record(self, calls):
        self.used[datetime.date.today()] += calls  #@F
        self.used[datetime.datetime.now(datetime.timezone.utc).date()] += calls  #@S

    def used_on(self, day):
        return self.used[day]
''',
"test_CID.py": r'''
import datetime

import CID_quota as quota


def test_usage_counts_for_today():
    q = quota.Quota(limit=1000)
    q.record(3)
    assert q.used_on(datetime.datetime.now(datetime.timezone.utc).date()) == 3
''',
    }))

T.append(dict(
    topic="shop_orders_today_pinned_tz", cls="calendar", test="test_new_order_is_in_todays_orders",
    trigger="midnight in the test's own time zone: the test pins TZ=America/Los_Angeles (the shop's zone); orders are stamped with naive datetime.utcnow() and 'today' is the local date.today(), so the new order is missing whenever the Los Angeles date differs from the UTC date (00:00-08:00 UTC in winter, 00:00-07:00 in summer)",
    robust="any clock position (aware UTC stamps converted to local time)",
    conds=CAL,
    files={
"CID_shop.py": r'''
"""Orders of a Los Angeles shop; the dashboard shows today's orders (shop-local day)."""
import datetime


class Shop:
    def __init__(self):
        self.orders = []

    def place(self, item):
        self.orders.append({"item": item, "at": datetime.datetime.utcnow()})  #@F
        self.orders.append({"item": item, "at": datetime.datetime.now(datetime.timezone.utc)})  #@S

    def orders_today(self):
        today = datetime.date.today()
        return [o for o in self.orders if o["at"].date() == today]  #@F
        return [o for o in self.orders if o["at"].astimezone().date() == today]  #@S
''',
"test_CID.py": r'''
import os
import time
import warnings

import pytest

import CID_shop as shop


@pytest.fixture
def shop_tz():
    old = os.environ.get("TZ")
    os.environ["TZ"] = "America/Los_Angeles"
    time.tzset()
    yield
    if old is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_new_order_is_in_todays_orders(shop_tz):
    s = shop.Shop()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        s.place("espresso beans")
    assert [o["item"] for o in s.orders_today()] == ["espresso beans"]
''',
    }))

# ------------------------------------------------------------------------------------------ privilege
PRIV = ["unprivileged"]

T.append(dict(
    topic="config_unreadable_file", cls="privilege", test="test_unreadable_config_is_reported",
    trigger="privilege: the test makes the config file unreadable with chmod 000 and expects ConfigError; root reads it anyway (CAP_DAC_OVERRIDE), so it fails when run as root and passes unprivileged",
    robust="root and unprivileged (unreadable path made with a directory in place of the file)",
    conds=PRIV,
    files={
"CID_config.py": r'''
"""Loads the service configuration."""
import json
import pathlib


class ConfigError(Exception):
    pass


def load_config(path):
    try:
        return json.loads(pathlib.Path(path).read_text())
    except OSError as e:
        raise ConfigError(f"cannot read {path}: {e.strerror}") from e
''',
"test_CID.py": r'''
import pytest

import CID_config as config


def test_unreadable_config_is_reported(tmp_path):
    path = tmp_path / "service.json"
    path.write_text('{"workers": 4}')  #@F
    path.chmod(0o000)  #@F
    path.mkdir()  # reading a directory fails for every user  #@S
    with pytest.raises(config.ConfigError, match="cannot read"):
        config.load_config(path)
''',
    }))

T.append(dict(
    topic="cache_dir_readonly_fallback", cls="privilege", test="test_falls_back_when_cache_dir_unwritable",
    trigger="privilege: the test makes the preferred cache directory read-only (0o555) and expects the fallback; os.access(W_OK) is true for root, so it fails as root and passes unprivileged",
    robust="root and unprivileged (probe by writing; the unwritable location is a regular file, not a permission bit)",
    conds=PRIV,
    files={
"CID_cachedir.py": r'''
"""Chooses the directory for the thumbnail cache."""
import os


def pick_cache_dir(preferred, fallback):
    if os.path.isdir(preferred) and os.access(preferred, os.W_OK):  #@F
        return preferred  #@F
    try:  #@S
        probe = os.path.join(preferred, ".write-probe")  #@S
        with open(probe, "w"):  #@S
            pass  #@S
        os.unlink(probe)  #@S
        return preferred  #@S
    except OSError:  #@S
        pass  #@S
    os.makedirs(fallback, exist_ok=True)
    return fallback
''',
"test_CID.py": r'''
import CID_cachedir as cachedir


def test_falls_back_when_cache_dir_unwritable(tmp_path):
    preferred = tmp_path / "shared-cache"
    preferred.mkdir()  #@F
    preferred.chmod(0o555)  #@F
    preferred.write_text("not a directory")  # unwritable for every user  #@S
    fallback = tmp_path / "user-cache"
    assert cachedir.pick_cache_dir(str(preferred), str(fallback)) == str(fallback)
''',
    }))

T.append(dict(
    topic="backup_restore_owner", cls="privilege", test="test_restore_keeps_owner",
    trigger="privilege (reverse): the test expects restored files to belong to the archived uid 4242; tarfile only chowns when running as root, so it passes as root and fails unprivileged",
    robust="root and unprivileged (expects the archived owner only where chown is possible)",
    conds=PRIV,
    files={
"CID_backup.py": r'''
"""Restores home-directory backups."""
import io
import tarfile


def make_backup(path, files, uid):
    with tarfile.open(path, "w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.uid, info.gid, info.mode = len(data), uid, uid, 0o640
            tf.addfile(info, io.BytesIO(data))


def restore(path, dest):
    with tarfile.open(path) as tf:
        tf.extractall(dest, numeric_owner=True)
''',
"test_CID.py": r'''
import os

import CID_backup as backup


def test_restore_keeps_owner(tmp_path):
    archive = tmp_path / "home.tar.gz"
    backup.make_backup(archive, {"notes.txt": b"buy milk\n"}, uid=4242)
    backup.restore(archive, tmp_path / "restored")
    st = os.stat(tmp_path / "restored" / "notes.txt")
    expected_uid = 4242  #@F
    expected_uid = 4242 if os.geteuid() == 0 else os.geteuid()  # only root can chown  #@S
    assert st.st_uid == expected_uid
    assert (tmp_path / "restored" / "notes.txt").read_bytes() == b"buy milk\n"
''',
    }))

T.append(dict(
    topic="password_age_shadow", cls="privilege", test="test_root_password_age_is_known",
    trigger="privilege (reverse): the test reads the real /etc/shadow (mode 0640 root:shadow); it passes as root and raises PermissionError unprivileged",
    robust="root and unprivileged (the test passes a shadow file it writes itself)",
    conds=PRIV,
    files={
"CID_shadow.py": r'''
"""Password-age report for the security audit."""


def last_change_days(user, shadow_path="/etc/shadow"):
    with open(shadow_path) as fh:
        for line in fh:
            fields = line.rstrip("\n").split(":")
            if fields[0] == user:
                return int(fields[2]) if fields[2] else None
    raise KeyError(user)
''',
"test_CID.py": r'''
import CID_shadow as shadow


def test_root_password_age_is_known(tmp_path):
    path = "/etc/shadow"  #@F
    path = tmp_path / "shadow"  #@S
    path.write_text("root:*:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n")  #@S
    assert shadow.last_change_days("root", path) > 0
''',
    }))
