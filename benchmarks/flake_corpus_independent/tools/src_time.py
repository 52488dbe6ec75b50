CASES = []

def add(topic, cls, trigger, judged, notes_f, notes_s, flaky, stable, extra=None, modes="plain", trigger_env=None):
    CASES.append(dict(topic=topic, cls=cls, trigger=trigger, judged=judged, notes_f=notes_f,
                      notes_s=notes_s, flaky=flaky, stable=stable, extra=extra or {}, modes=modes,
                      trigger_env=trigger_env))

add("oncall_rota", "time", "local hour outside 08:00-20:00 (clock or TZ, e.g. TZ=XYZ-12)", "test_current_contact",
    "Contact depends on datetime.now().hour (local); written during office hours, fails in the evening/night or under a far-east TZ.",
    "The rota takes an explicit aware datetime; the test passes a fixed 10:00 time.",
'''
from datetime import datetime

ROTA = {"day": "ops-day@example.com", "night": "pager@example.com"}


def current_contact(now=None):
    now = now or datetime.now()
    return ROTA["day"] if 8 <= now.hour < 20 else ROTA["night"]


def test_current_contact():
    assert current_contact() == "ops-day@example.com"
''',
'''
from datetime import datetime, timezone

ROTA = {"day": "ops-day@example.com", "night": "pager@example.com"}


def current_contact(now=None):
    now = now or datetime.now()
    return ROTA["day"] if 8 <= now.hour < 20 else ROTA["night"]


def test_current_contact():
    assert current_contact(datetime(2024, 3, 5, 10, 0, tzinfo=timezone.utc)) == "ops-day@example.com"
    assert current_contact(datetime(2024, 3, 5, 23, 0, tzinfo=timezone.utc)) == "pager@example.com"
''', trigger_env=[{"TZ": "XYZ-12"}])

add("daily_report_date", "time", "local date != UTC date (TZ far from UTC, e.g. TZ=XYZ+11 before 11:00 UTC, or near midnight)",
    "test_report_name_is_today",
    "File name uses date.today() (local) but the test expects the UTC date.",
    "Both sides use the same aware UTC clock.",
'''
from datetime import date, datetime, timezone


def report_name():
    return f"report-{date.today().isoformat()}.csv"


def test_report_name_is_today():
    today_utc = datetime.now(timezone.utc).date()
    assert report_name() == f"report-{today_utc.isoformat()}.csv"
''',
'''
from datetime import datetime, timezone


def report_name(now=None):
    now = now or datetime.now(timezone.utc)
    return f"report-{now.date().isoformat()}.csv"


def test_report_name_is_today():
    now = datetime.now(timezone.utc)
    assert report_name(now) == f"report-{now.date().isoformat()}.csv"
''', trigger_env=[{"TZ": "XYZ+11"}])

add("log_line_clock", "time", "TZ != UTC (time.localtime vs UTC expectation)", "test_log_line_prefix",
    "Log prefix is built from time.localtime(); the test expects the UTC hour:minute. Passes only where the local zone is UTC.",
    "Log prefix and expectation both come from one time.gmtime() value passed in.",
'''
import time
from datetime import datetime, timezone


def format_log_line(msg):
    return time.strftime("%H:%M", time.localtime()) + " " + msg


def test_log_line_prefix():
    expected = datetime.now(timezone.utc).strftime("%H:%M")
    line = format_log_line("started")
    assert line == f"{expected} started"
''',
'''
import time


def format_log_line(msg, ts=None):
    ts = time.time() if ts is None else ts
    return time.strftime("%H:%M", time.gmtime(ts)) + " " + msg


def test_log_line_prefix():
    ts = time.time()
    expected = time.strftime("%H:%M", time.gmtime(ts))
    assert format_log_line("started", ts) == f"{expected} started"
''', trigger_env=[{"TZ": "XYZ-5"}])

add("subscription_renewal", "time", "day of month >= 29 (next month shorter; e.g. Jan 29-31, Mar 31)", "test_renewal_is_next_month",
    "Renewal uses date.replace(month=month+1), raising ValueError when the next month has no such day.",
    "Renewal clamps to the last day of the next month (calendar.monthrange); test runs on fixed dates incl. Jan 31.",
'''
from datetime import date


def renewal_date(start):
    if start.month == 12:
        return start.replace(year=start.year + 1, month=1)
    return start.replace(month=start.month + 1)


def test_renewal_is_next_month():
    today = date.today()
    r = renewal_date(today)
    assert (r.year * 12 + r.month) - (today.year * 12 + today.month) == 1
    assert r.day == today.day
''',
'''
import calendar
from datetime import date


def renewal_date(start):
    year, month = (start.year + 1, 1) if start.month == 12 else (start.year, start.month + 1)
    day = min(start.day, calendar.monthrange(year, month)[1])
    return date(year, month, day)


def test_renewal_is_next_month():
    for start, expected in [(date(2024, 1, 31), date(2024, 2, 29)), (date(2023, 12, 15), date(2024, 1, 15)),
                            (date.today(), None)]:
        r = renewal_date(start)
        assert (r.year * 12 + r.month) - (start.year * 12 + start.month) == 1
        if expected:
            assert r == expected
''')

add("sla_deadline", "time", "weekday is Wed-Sun (3 business days cross a weekend)", "test_deadline_three_days_out",
    "add_business_days skips weekends correctly, but the test asserts a calendar difference of 3 days - true only Mon/Tue.",
    "Test uses fixed dates and asserts weekday-aware expectations.",
'''
from datetime import date, timedelta


def add_business_days(start, n):
    d = start
    while n:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def test_deadline_three_days_out():
    today = date.today()
    deadline = add_business_days(today, 3)
    assert deadline.weekday() < 5
    assert (deadline - today).days == 3
''',
'''
from datetime import date, timedelta


def add_business_days(start, n):
    d = start
    while n:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


def test_deadline_three_days_out():
    assert add_business_days(date(2024, 6, 3), 3) == date(2024, 6, 6)   # Mon -> Thu
    assert add_business_days(date(2024, 6, 5), 3) == date(2024, 6, 10)  # Wed -> Mon
    deadline = add_business_days(date.today(), 3)
    assert deadline.weekday() < 5
    assert 3 <= (deadline - date.today()).days <= 5
''')

add("invoice_due", "time", "day of month > (days in month - 14): due date two weeks ahead crosses a month", "test_due_label",
    "Expected label is built as today.day + 14 in the current month; wrong in the second half of any month.",
    "Expected label is built from the same timedelta arithmetic, and a fixed month-crossing date is checked.",
'''
from datetime import date, timedelta


def due_label(issued):
    due = issued + timedelta(days=14)
    return f"due {due.day} {due:%b}"


def test_due_label():
    today = date.today()
    assert due_label(today) == f"due {today.day + 14} {today:%b}"
''',
'''
from datetime import date, timedelta


def due_label(issued):
    due = issued + timedelta(days=14)
    return f"due {due.day} {due:%b}"


def test_due_label():
    assert due_label(date(2024, 1, 25)) == "due 8 Feb"
    today = date.today()
    due = today + timedelta(days=14)
    assert due_label(today) == f"due {due.day} {due:%b}"
''')

add("audit_timestamps", "time", "two int(time.time()) reads straddle a second boundary (~5%, more under CPU load)",
    "test_noop_save_keeps_timestamp",
    "created_at and updated_at are taken ~40 ms apart with one-second resolution; the test assumes they are equal.",
    "Timestamps come from an injected clock; the test freezes it.",
'''
import hashlib
import time


def create(data):
    now = int(time.time())
    return {"data": data, "created_at": now, "updated_at": now}


def save(record):
    payload = repr(record["data"]).encode()
    for _ in range(130000):
        payload = hashlib.sha1(payload).digest()
    record["checksum"] = payload.hex()
    record["updated_at"] = int(time.time())
    return record


def test_noop_save_keeps_timestamp():
    rec = save(create({"name": "ada"}))
    assert rec["updated_at"] == rec["created_at"]
''',
'''
import hashlib
import time


def create(data, clock=time.time):
    now = int(clock())
    return {"data": data, "created_at": now, "updated_at": now}


def save(record, clock=time.time):
    payload = repr(record["data"]).encode()
    for _ in range(130000):
        payload = hashlib.sha1(payload).digest()
    record["checksum"] = payload.hex()
    record["updated_at"] = int(clock())
    return record


def test_noop_save_keeps_timestamp():
    frozen = lambda: 1_700_000_000.5
    rec = save(create({"name": "ada"}, clock=frozen), clock=frozen)
    assert rec["updated_at"] == rec["created_at"]
''')

add("job_ids_ms", "time", "clock resolution: two millisecond timestamps equal when work between them is < 1 ms",
    "test_job_ids_distinct",
    "Job ids are int(time.time()*1000); two submissions separated by ~0.5-1 ms of work may share an id.",
    "Job ids combine the ms timestamp with an itertools.count sequence number.",
'''
import json
import time


def submit(spec):
    body = json.dumps(spec, sort_keys=True)
    return {"id": f"job-{int(time.time() * 1000)}", "body": body}


def test_job_ids_distinct():
    spec = {"steps": [{"name": f"s{i}", "args": list(range(20))} for i in range(320)]}
    a = submit(spec)
    b = submit(spec)
    assert a["id"] != b["id"]
''',
'''
import itertools
import json
import time

_seq = itertools.count()


def submit(spec):
    body = json.dumps(spec, sort_keys=True)
    return {"id": f"job-{int(time.time() * 1000)}-{next(_seq)}", "body": body}


def test_job_ids_distinct():
    spec = {"steps": [{"name": f"s{i}", "args": list(range(20))} for i in range(320)]}
    a = submit(spec)
    b = submit(spec)
    assert a["id"] != b["id"]
''')

add("backup_names", "time", "datetime.now() second rolls over between backup and assertion (~3-6%)", "test_backup_name_uses_now",
    "Backup name is computed before ~50 ms of compression; the test recomputes the name from datetime.now() afterwards.",
    "Backup records the timestamp it used; the test derives the expected name from it.",
'''
import zlib
from datetime import datetime


def make_backup(data):
    name = f"db-{datetime.now():%Y%m%d-%H%M%S}.bak"
    blob = data
    for _ in range(6):
        blob = zlib.compress(blob + data, 9)
    return name, blob


def test_backup_name_uses_now():
    data = bytes(range(256)) * 9000
    name, blob = make_backup(data)
    assert blob
    assert name == f"db-{datetime.now():%Y%m%d-%H%M%S}.bak"
''',
'''
import zlib
from datetime import datetime


def make_backup(data, now=None):
    now = now or datetime.now()
    name = f"db-{now:%Y%m%d-%H%M%S}.bak"
    blob = data
    for _ in range(6):
        blob = zlib.compress(blob + data, 9)
    return name, blob, now


def test_backup_name_uses_now():
    data = bytes(range(256)) * 9000
    name, blob, used = make_backup(data)
    assert blob
    assert name == f"db-{used:%Y%m%d-%H%M%S}.bak"
''')
