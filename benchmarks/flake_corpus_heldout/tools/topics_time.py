TOPICS = []
def T(**kw): TOPICS.append(kw)

T(topic="invoice_date", cls="time", node="test_invoice_is_dated_today_utc",
  trigger="date.today() is local; differs from the UTC date when the local zone's date has rolled over (TZ far from UTC at the right hour of day)",
  robust="TZ, hour of day (UTC throughout)",
  common={},
  flaky={"appmod.py": '''
from datetime import date


def new_invoice(customer):
    return {"customer": customer, "date": date.today().isoformat()}
''', "TEST": '''
from datetime import datetime, timezone

from appmod import new_invoice


def test_invoice_is_dated_today_utc():
    inv = new_invoice("acme")
    assert inv["date"] == datetime.now(timezone.utc).date().isoformat()
'''},
  stable={"appmod.py": '''
from datetime import datetime, timezone


def new_invoice(customer):
    return {"customer": customer, "date": datetime.now(timezone.utc).date().isoformat()}
''', "TEST": '''
from datetime import datetime, timezone

from appmod import new_invoice


def test_invoice_is_dated_today_utc():
    inv = new_invoice("acme")
    assert inv["date"] == datetime.now(timezone.utc).date().isoformat()
'''})

T(topic="event_timestamp", cls="time", node="test_format_event_time",
  trigger="datetime.fromtimestamp() without tz renders local time; fails whenever TZ is not UTC",
  robust="TZ (explicit timezone.utc)",
  common={},
  flaky={"appmod.py": '''
from datetime import datetime


def format_event(ts):
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")
''', "TEST": '''
import pytest

from appmod import format_event


@pytest.mark.parametrize("ts, expected", [
    pytest.param(1767225600, "2026-01-01 00:00", id="new-year"),
    pytest.param(1767268800, "2026-01-01 12:00", id="new-year-noon"),
])
def test_format_event_time(ts, expected):
    assert format_event(ts) == expected
'''},
  stable={"appmod.py": '''
from datetime import datetime, timezone


def format_event(ts):
    return datetime.fromtimestamp(ts, tz=timezone.utc).strftime("%Y-%m-%d %H:%M")
''', "TEST": '''
import pytest

from appmod import format_event


@pytest.mark.parametrize("ts, expected", [
    pytest.param(1767225600, "2026-01-01 00:00", id="new-year"),
    pytest.param(1767268800, "2026-01-01 12:00", id="new-year-noon"),
])
def test_format_event_time(ts, expected):
    assert format_event(ts) == expected
'''},
  node_param="test_format_event_time[new-year]")

T(topic="dst_duration", cls="time", node="test_day_has_24_hours",
  trigger="time.mktime interprets naive datetimes in local time; 2026-03-29 has 23 hours in Europe/Berlin",
  robust="TZ (calendar.timegm, UTC)",
  common={},
  flaky={"appmod.py": '''
import time


def hours_between(start, end):
    return (time.mktime(end.timetuple()) - time.mktime(start.timetuple())) / 3600
''', "TEST": '''
from datetime import datetime

from appmod import hours_between


def test_day_has_24_hours():
    assert hours_between(datetime(2026, 3, 29), datetime(2026, 3, 30)) == 24
'''},
  stable={"appmod.py": '''
import calendar


def hours_between(start, end):
    return (calendar.timegm(end.timetuple()) - calendar.timegm(start.timetuple())) / 3600
''', "TEST": '''
from datetime import datetime

from appmod import hours_between


def test_day_has_24_hours():
    assert hours_between(datetime(2026, 3, 29), datetime(2026, 3, 30)) == 24
'''})

T(topic="due_date", cls="time", node="test_due_in_three_days",
  trigger="date.replace(day=day+3) raises ValueError in the last days of a month (late in the month; faketime 2026-12-30)",
  robust="date of month (timedelta)",
  common={},
  flaky={"appmod.py": '''
from datetime import date


def due_in(days, today=None):
    today = today or date.today()
    return today.replace(day=today.day + days)
''', "TEST": '''
from datetime import date

from appmod import due_in


def test_due_in_three_days():
    today = date.today()
    assert (due_in(3, today) - today).days == 3
'''},
  stable={"appmod.py": '''
from datetime import date, timedelta


def due_in(days, today=None):
    today = today or date.today()
    return today + timedelta(days=days)
''', "TEST": '''
from datetime import date

from appmod import due_in


def test_due_in_three_days():
    today = date.today()
    assert (due_in(3, today) - today).days == 3
'''})

T(topic="audit_log_line", cls="time", node="test_log_line_has_current_time",
  trigger="the code stamps the time, then does ~50 ms of pseudonymisation; the test formats its own now() afterwards, so a second boundary in between fails it (a few %, more under load)",
  robust="clock (time injected)",
  common={},
  flaky={"appmod.py": '''
import hashlib
from datetime import datetime


def pseudonym(user):
    return hashlib.pbkdf2_hmac("sha256", user.encode(), b"audit", 60000).hex()[:10]


def audit_line(user, action, now=None):
    stamp = (now or datetime.now()).strftime("%H:%M:%S")
    return f"{stamp} {pseudonym(user)} {action}"
''', "TEST": '''
from datetime import datetime

from appmod import audit_line, pseudonym


def test_log_line_has_current_time():
    line = audit_line("ada", "login")
    assert line == f"{datetime.now():%H:%M:%S} {pseudonym('ada')} login"
'''},
  stable={"appmod.py": '''
import hashlib
from datetime import datetime


def pseudonym(user):
    return hashlib.pbkdf2_hmac("sha256", user.encode(), b"audit", 60000).hex()[:10]


def audit_line(user, action, now=None):
    stamp = (now or datetime.now()).strftime("%H:%M:%S")
    return f"{stamp} {pseudonym(user)} {action}"
''', "TEST": '''
from datetime import datetime

from appmod import audit_line, pseudonym


def test_log_line_has_current_time():
    now = datetime.now()
    line = audit_line("ada", "login", now=now)
    assert line == f"{now:%H:%M:%S} {pseudonym('ada')} login"
'''})

T(topic="session_ttl", cls="timing", node="test_session_alive_within_ttl",
  trigger="real clock: 25 ms sleep plus CPU work must stay under a 60 ms TTL; fails when the process is starved (CPU load)",
  robust="CPU load (fake clock)",
  common={},
  flaky={"appmod.py": '''
import time


class SessionStore:
    def __init__(self, ttl, clock=time.monotonic):
        self.ttl = ttl
        self.clock = clock
        self._data = {}

    def put(self, sid, user):
        self._data[sid] = (user, self.clock() + self.ttl)

    def get(self, sid):
        user, expires = self._data.get(sid, (None, 0))
        return user if self.clock() < expires else None


def render_profile(user):
    return "".join(f"<li>{user}-{i}</li>" for i in range(60000))
''', "TEST": '''
import time

from appmod import SessionStore, render_profile


def test_session_alive_within_ttl():
    store = SessionStore(ttl=0.06)
    store.put("s1", "ada")
    render_profile("ada")
    time.sleep(0.025)
    assert store.get("s1") == "ada"
'''},
  stable={"appmod.py": '''
import time


class SessionStore:
    def __init__(self, ttl, clock=time.monotonic):
        self.ttl = ttl
        self.clock = clock
        self._data = {}

    def put(self, sid, user):
        self._data[sid] = (user, self.clock() + self.ttl)

    def get(self, sid):
        user, expires = self._data.get(sid, (None, 0))
        return user if self.clock() < expires else None


def render_profile(user):
    return "".join(f"<li>{user}-{i}</li>" for i in range(60000))
''', "TEST": '''
from appmod import SessionStore, render_profile


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_session_alive_within_ttl():
    clock = FakeClock()
    store = SessionStore(ttl=0.06, clock=clock)
    store.put("s1", "ada")
    render_profile("ada")
    clock.now += 0.025
    assert store.get("s1") == "ada"
    clock.now += 0.05
    assert store.get("s1") is None
'''})

T(topic="thumbnail_worker", cls="async-wait", node="test_worker_processes_job",
  trigger="fixed sleep(0.04) waits for a background thread doing ~20 ms of work; fails when starved (CPU load)",
  robust="CPU load (waits on queue.join with a generous timeout)",
  common={"appmod.py": '''
import queue
import threading
import zlib


class Worker:
    def __init__(self):
        self.jobs = queue.Queue()
        self.done = {}
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _run(self):
        while True:
            name, data = self.jobs.get()
            blob = data
            for _ in range(28):
                blob = zlib.compress(blob, 6)[:20000] + data
            self.done[name] = len(blob)
            self.jobs.task_done()

    def submit(self, name, data):
        self.jobs.put((name, data))
'''},
  flaky={"TEST": '''
import os
import time

from appmod import Worker


def test_worker_processes_job():
    w = Worker()
    w.submit("cat.png", os.urandom(20000))
    time.sleep(0.04)
    assert "cat.png" in w.done
'''},
  stable={"TEST": '''
import os
import threading

from appmod import Worker


def test_worker_processes_job():
    w = Worker()
    w.submit("cat.png", os.urandom(20000))
    waiter = threading.Thread(target=w.jobs.join, daemon=True)
    waiter.start()
    waiter.join(timeout=10)
    assert "cat.png" in w.done
'''})

T(topic="profile_fetch_async", cls="async-wait", node="test_fetch_profile_within_timeout",
  trigger="asyncio.wait_for(timeout=0.06) around a 20 ms await plus ~20 ms CPU parse; exceeds the timeout when starved (CPU load)",
  robust="CPU load (generous timeout)",
  common={"appmod.py": '''
import asyncio
import json


async def fetch_profile(user_id):
    await asyncio.sleep(0.02)
    payload = json.dumps([{"id": user_id, "n": i, "tags": ["a", "b"]} for i in range(12000)])
    return json.loads(payload)[0]
'''},
  flaky={"TEST": '''
import asyncio

from appmod import fetch_profile


def test_fetch_profile_within_timeout():
    async def main():
        return await asyncio.wait_for(fetch_profile(7), timeout=0.06)

    assert asyncio.run(main())["id"] == 7
'''},
  stable={"TEST": '''
import asyncio

from appmod import fetch_profile


def test_fetch_profile_within_timeout():
    async def main():
        return await asyncio.wait_for(fetch_profile(7), timeout=10)

    assert asyncio.run(main())["id"] == 7
'''})

T(topic="dedupe_perf", cls="timing", node="test_dedupe_is_fast",
  trigger="wall-clock budget of 45 ms for ~20-30 ms of work; fails under CPU contention",
  robust="CPU load (asserts the number of comparisons, not time)",
  common={"appmod.py": '''
def dedupe(records, stats=None):
    seen = set()
    out = []
    for r in records:
        key = (r["email"].lower(), r["country"])
        if stats is not None:
            stats["lookups"] = stats.get("lookups", 0) + 1
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out
'''},
  flaky={"TEST": '''
import time

from appmod import dedupe


def test_dedupe_is_fast():
    records = [{"email": f"User{i % 5000}@x.org", "country": "NZ"} for i in range(60000)]
    start = time.perf_counter()
    out = dedupe(records)
    elapsed = time.perf_counter() - start
    assert len(out) == 5000
    assert elapsed < 0.045
'''},
  stable={"TEST": '''
from appmod import dedupe


def test_dedupe_is_fast():
    records = [{"email": f"User{i % 5000}@x.org", "country": "NZ"} for i in range(60000)]
    stats = {}
    out = dedupe(records, stats)
    assert len(out) == 5000
    assert stats["lookups"] == len(records)
'''})

T(topic="notify_order_threads", cls="concurrency", node="test_notifications_in_priority_order",
  trigger="ordering by sleep: the 'high' thread sleeps 10 ms less but does CPU work first; under contention it finishes second",
  robust="CPU load (threads joined in priority order)",
  common={"appmod.py": '''
import threading
import time


def deliver(outbox, channel, delay, work):
    acc = 0
    for i in range(work):
        acc += i * i
    time.sleep(delay)
    outbox.append(channel)
'''},
  flaky={"TEST": '''
import threading

from appmod import deliver


def test_notifications_in_priority_order():
    outbox = []
    high = threading.Thread(target=deliver, args=(outbox, "high", 0.005, 120000))
    low = threading.Thread(target=deliver, args=(outbox, "low", 0.02, 0))
    high.start()
    low.start()
    high.join()
    low.join()
    assert outbox == ["high", "low"]
'''},
  stable={"TEST": '''
import threading

from appmod import deliver


def test_notifications_in_priority_order():
    outbox = []
    high = threading.Thread(target=deliver, args=(outbox, "high", 0.005, 120000))
    low = threading.Thread(target=deliver, args=(outbox, "low", 0.02, 0))
    high.start()
    high.join()
    low.start()
    low.join()
    assert outbox == ["high", "low"]
'''})

T(topic="async_save_task", cls="async-wait", node="test_background_save_completes",
  trigger="fire-and-forget task awaited only with asyncio.sleep(0.03) while the save runs in a thread with ~15 ms of work; fails when starved",
  robust="CPU load (the task is awaited)",
  common={"appmod.py": '''
import asyncio
import json


def _write(path, doc):
    text = json.dumps({"items": [doc] * 15000})
    with open(path, "w") as fh:
        fh.write(text)


async def save(path, doc):
    await asyncio.to_thread(_write, path, doc)
'''},
  flaky={"TEST": '''
import asyncio
import json

from appmod import save


def test_background_save_completes(tmp_path):
    target = tmp_path / "doc.json"

    async def main():
        asyncio.create_task(save(target, {"id": 1}))
        await asyncio.sleep(0.03)

    asyncio.run(main())
    assert json.loads(target.read_text())["items"][0] == {"id": 1}
'''},
  stable={"TEST": '''
import asyncio
import json

from appmod import save


def test_background_save_completes(tmp_path):
    target = tmp_path / "doc.json"

    async def main():
        task = asyncio.create_task(save(target, {"id": 1}))
        await asyncio.wait_for(task, timeout=10)

    asyncio.run(main())
    assert json.loads(target.read_text())["items"][0] == {"id": 1}
'''})
