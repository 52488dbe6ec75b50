# time, timing/async-wait, network, concurrency, io, infrastructure, resource topics.
T = []

T.append(dict(
    topic="happy_hour_pricing", cls="time", test="test_regular_price_without_discount",
    trigger="time of day: the price uses datetime.now() and a 16:30-19:00 local happy hour; fails when the local wall clock is in that window (e.g. TZ=Europe/Berlin around 15:30-18:00 UTC)",
    robust="time zone, time of day",
    files={
"CID_pricing.py": r'''
import datetime

HAPPY_START = datetime.time(16, 30)
HAPPY_END = datetime.time(19, 0)


def price(base, now=None):
    now = now or datetime.datetime.now()
    if HAPPY_START <= now.time() < HAPPY_END:
        return round(base * 0.8, 2)
    return base
''',
"test_CID.py": r'''
import datetime

from CID_pricing import price


def test_regular_price_without_discount():
    assert price(10.0) == 10.0  #@F
    assert price(10.0, now=datetime.datetime(2024, 5, 2, 11, 15)) == 10.0  #@S
'''}))

T.append(dict(
    topic="weekly_digest", cls="time", test="test_digest_covers_next_seven_days",
    trigger="date late in the month: the digest drops days that fall into next month, so it has fewer than 7 days during the last 6 days of a month (measured with faketime 2026-12-30)",
    robust="date, time zone",
    files={
"CID_digest.py": r'''
import datetime


def upcoming_days(today=None):
    today = today or datetime.date.today()
    days = [today + datetime.timedelta(days=i) for i in range(7)]
    return [d for d in days if d.month == today.month]  #@F
    return days  #@S
''',
"test_CID.py": r'''
from CID_digest import upcoming_days


def test_digest_covers_next_seven_days():
    days = upcoming_days()
    assert len(days) == 7
'''}))

T.append(dict(
    topic="rate_limit_window", cls="time", test="test_sixth_request_in_a_second_is_rejected",
    trigger="fixed one-second window keyed by int(time.time()): when the six ~12 ms requests straddle a second boundary the counter resets and the 6th request is admitted (~7% of runs, more under load)",
    robust="clock second boundary, machine load (injected clock)",
    files={
"CID_limiter.py": r'''
import collections
import time


class RateLimiter:
    def __init__(self, limit, clock=time.time):
        self.limit = limit
        self.clock = clock
        self.window = None
        self.count = 0
        self.recent = collections.deque()

    def allow(self):
        now = self.clock()
        window = int(now)  #@F
        if window != self.window:  #@F
            self.window, self.count = window, 0  #@F
        if self.count >= self.limit:  #@F
            return False  #@F
        self.count += 1  #@F
        while self.recent and now - self.recent[0] >= 1.0:  #@S
            self.recent.popleft()  #@S
        if len(self.recent) >= self.limit:  #@S
            return False  #@S
        self.recent.append(now)  #@S
        return True


class SteppingClock:
    """Deterministic clock for tests: every reading advances by `step` seconds."""

    def __init__(self, start, step):
        self.now, self.step = start, step

    def __call__(self):
        self.now += self.step
        return self.now


def handle_request(limiter, payload):
    if not limiter.allow():
        return 429
    time.sleep(0.012)  # render the response
    return 200
''',
"test_CID.py": r'''
from CID_limiter import RateLimiter, SteppingClock, handle_request


def test_sixth_request_in_a_second_is_rejected():
    limiter = RateLimiter(limit=5)  #@F
    limiter = RateLimiter(limit=5, clock=SteppingClock(start=1_700_000_000.95, step=0.012))  #@S
    codes = [handle_request(limiter, {"n": i}) for i in range(6)]
    assert codes == [200, 200, 200, 200, 200, 429]
'''}))

T.append(dict(
    topic="log_rollover", cls="time", test="test_log_file_named_after_today",
    trigger="time of day: the log file name is fixed when the logger opens, the test recomputes date.today() after writing; fails when midnight passes in between (measured with faketime starting at 23:59:58)",
    robust="midnight, time zone",
    files={
"CID_applog.py": r'''
import datetime
import pathlib


class DailyLog:
    def __init__(self, directory):
        self.path = pathlib.Path(directory) / f"app-{datetime.date.today():%Y%m%d}.log"
        self.fh = open(self.path, "a")

    def write(self, message):
        self.fh.write(f"{datetime.datetime.now():%H:%M:%S.%f} {message}\n")
        self.fh.flush()

    def close(self):
        self.fh.close()
''',
"test_CID.py": r'''
import datetime

from CID_applog import DailyLog


def test_log_file_named_after_today(tmp_path):
    log = DailyLog(tmp_path)
    for i in range(20000):
        log.write(f"request {i} served")
    log.close()
    expected = tmp_path / f"app-{datetime.date.today():%Y%m%d}.log"  #@F
    expected = log.path  #@S
    assert expected.exists()
    assert len(expected.read_text().splitlines()) == 20000
'''}))

T.append(dict(
    topic="http_date_header", cls="time", test="test_last_modified_header_round_trips",
    trigger="time zone: the HTTP date is formatted from time.localtime() but labelled GMT; fails whenever TZ is not UTC (tz-west5, tz-east12, tz-berlin)",
    robust="time zone",
    files={
"CID_httpdate.py": r'''
import time


def http_date(ts):
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.localtime(ts))  #@F
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(ts))  #@S
''',
"test_CID.py": r'''
from email.utils import parsedate_to_datetime

from CID_httpdate import http_date


def test_last_modified_header_round_trips():
    ts = 1_700_000_000
    assert parsedate_to_datetime(http_date(ts)).timestamp() == ts
'''}))

# ---------------------------------------------------------------- async wait / timing
T.append(dict(
    topic="executor_thumbnail", cls="async-wait", test="test_thumbnail_ready_after_upload",
    trigger="async wait: the test sleeps a fixed 40 ms and then expects the executor job to be done; it fails when the CPU-bound job takes longer (machine load, parallel runs)",
    robust="machine load, parallel runs",
    files={
"CID_thumbs.py": r'''
import asyncio


def make_thumbnail(pixels, size=16):
    acc = 0
    for i in range(pixels):
        acc = (acc * 31 + i) % 1_000_003
    return {"size": size, "checksum": acc}


async def upload(loop, pixels):
    return loop.run_in_executor(None, make_thumbnail, pixels)
''',
"test_CID.py": r'''
import asyncio

from CID_thumbs import upload


def test_thumbnail_ready_after_upload():
    async def scenario():
        loop = asyncio.get_running_loop()
        job = await upload(loop, 250_000)
        await asyncio.sleep(0.04)  #@F
        assert job.done(), "thumbnail not ready"  #@F
        await asyncio.wait_for(job, timeout=30)  #@S
        return job.result()

    assert asyncio.run(scenario())["size"] == 16
'''}))

T.append(dict(
    topic="search_debounce", cls="timing", test="test_burst_of_keystrokes_fires_one_search",
    trigger="timing: keystrokes 10 ms apart are expected to stay inside a 20 ms debounce window on the real clock; a delayed sleep/timer thread (machine load) fires the search twice",
    robust="machine load",
    files={
"CID_debounce.py": r'''
import threading


class ManualTimer:
    """Timer driven by the test instead of the wall clock."""

    pending = []

    def __init__(self, delay, fn):
        self.delay, self.fn, self.cancelled = delay, fn, False

    def start(self):
        ManualTimer.pending.append(self)

    def cancel(self):
        self.cancelled = True

    @classmethod
    def fire_all(cls):
        timers, cls.pending = cls.pending, []
        for t in timers:
            if not t.cancelled:
                t.fn()


class Debouncer:
    def __init__(self, delay, fn, timer_factory=threading.Timer):
        self.delay, self.fn, self.timer_factory = delay, fn, timer_factory
        self.timer = None

    def trigger(self):
        if self.timer is not None:
            self.timer.cancel()
        self.timer = self.timer_factory(self.delay, self.fn)
        self.timer.start()
''',
"test_CID.py": r'''
import time

from CID_debounce import Debouncer, ManualTimer


def test_burst_of_keystrokes_fires_one_search():
    searches = []
    debouncer = Debouncer(0.02, lambda: searches.append("q"))  #@F
    debouncer = Debouncer(0.02, lambda: searches.append("q"), timer_factory=ManualTimer)  #@S
    for _ in range(6):
        debouncer.trigger()
        time.sleep(0.01)
    time.sleep(0.1)  #@F
    ManualTimer.fire_all()  #@S
    assert searches == ["q"]
'''}))

# ---------------------------------------------------------------- network (localhost only)
T.append(dict(
    topic="server_ready_race", cls="network", test="test_client_gets_health_response",
    trigger="network/async wait: the server thread warms its route table before bind()+listen() on a pre-picked port, the client connects right after Thread.start() without waiting for readiness (ConnectionRefused when the warm-up outlasts the GIL hand-over)",
    robust="machine load, scheduling",
    files={
"CID_server.py": r'''
import socket
import threading


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build_routes(n):
    routes = {}
    for i in range(n):
        routes[f"/api/v1/items/{i}"] = f"handler_{i % 7}"
    routes["/health"] = "ok"
    return routes


class HealthServer(threading.Thread):
    def __init__(self, port, warmup_routes):
        super().__init__(daemon=True)
        self.port = port
        self.warmup_routes = warmup_routes
        self.ready = threading.Event()

    def run(self):
        routes = build_routes(self.warmup_routes)
        srv = socket.socket()
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        srv.bind(("127.0.0.1", self.port))
        srv.listen(5)
        self.ready.set()
        conn, _ = srv.accept()
        with conn, srv:
            path = conn.recv(1024).decode().split()[1]
            conn.sendall(f"HTTP/1.0 200 OK\r\n\r\n{routes.get(path, 'missing')}".encode())


def get(port, path):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(f"GET {path} HTTP/1.0\r\n\r\n".encode())
        return s.recv(1024).decode().split("\r\n\r\n", 1)[1]
''',
"test_CID.py": r'''
from CID_server import HealthServer, free_port, get


def test_client_gets_health_response():
    port = free_port()
    server = HealthServer(port, warmup_routes=4000)
    server.start()
    server.ready.wait(10)  #@S
    assert get(port, "/health") == "ok"
    server.join(5)
'''}))

T.append(dict(
    topic="metrics_exporter_port", cls="network", test="test_metrics_endpoint_serves_counters",
    trigger="parallel runs: the exporter binds the fixed port 47391, so a second test process running at the same time fails with EADDRINUSE",
    robust="parallel runs, repetition",
    files={
"CID_exporter.py": r'''
import http.server
import threading

COUNTERS = {"orders_total": 12, "refunds_total": 1}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = "".join(f"{k} {v}\n" for k, v in sorted(COUNTERS.items())).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start_exporter(port=47391):  #@F
def start_exporter(port=0):  #@S
    server = http.server.HTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
''',
"test_CID.py": r'''
import time
import urllib.request

from CID_exporter import start_exporter


def test_metrics_endpoint_serves_counters():
    server = start_exporter()
    try:
        port = server.server_address[1]
        for _ in range(5):  # a scrape every 100 ms, like the collector does
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as resp:
                assert b"orders_total 12" in resp.read()
            time.sleep(0.1)
    finally:
        server.shutdown()
        server.server_close()
'''}))

# ---------------------------------------------------------------- concurrency
T.append(dict(
    topic="pool_overcommit", cls="concurrency", test="test_pool_never_exceeds_its_size",
    trigger="check-then-act without a lock in ConnectionPool.acquire: when a thread switch lands between the size check and the increment, more than `size` connections are handed out",
    robust="thread scheduling, machine load",
    files={
"CID_pool.py": r'''
import threading


class ConnectionPool:
    def __init__(self, size):
        self.size = size
        self.in_use = 0
        self.holders = 0
        self.peak = 0
        self.lock = threading.Lock()
        self.stats_lock = threading.Lock()

    def _new_connection(self):
        session = {f"SET {opt}": value for opt, value in (("search_path", "app"), ("timezone", "UTC"), ("statement_timeout", "5s"))}
        return {"id": self.holders, "autocommit": False, "session": session}

    def _try_acquire(self):
        if self.in_use < self.size:
            conn = self._new_connection()
            self.in_use += 1
            return conn
        return None

    def _checkout(self):
        with self.stats_lock:
            self.holders += 1
            self.peak = max(self.peak, self.holders)
        return True

    def acquire(self, spins=2000):
        for _ in range(spins):
            with self.lock:  #@S
                if self._try_acquire():  #@S
                    return self._checkout()  #@S
            if self._try_acquire():  #@F
                return self._checkout()  #@F
        return False

    def release(self):
        with self.stats_lock:
            self.holders -= 1
        with self.lock:
            self.in_use -= 1
''',
"test_CID.py": r'''
import threading

from CID_pool import ConnectionPool

ROUNDS = 15000


def test_pool_never_exceeds_its_size():
    pool = ConnectionPool(size=2)

    def worker():
        for _ in range(ROUNDS):
            if pool.acquire():
                pool.release()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert pool.peak <= 2
'''}))

T.append(dict(
    topic="metrics_registry_iteration", cls="concurrency", test="test_scrape_while_requests_register_series",
    trigger="the exporter iterates the live series dict while a request thread registers new label sets: RuntimeError 'dictionary changed size during iteration' when a thread switch lands inside the scrape",
    robust="thread scheduling, machine load",
    files={
"CID_registry.py": r'''
import threading


class Registry:
    def __init__(self):
        self.series = {}
        self.lock = threading.Lock()

    def inc(self, name, **labels):
        key = (name, tuple(sorted(labels.items())))
        with self.lock:
            self.series[key] = self.series.get(key, 0) + 1

    def scrape(self):
        lines = []
        items = self.series.items()  #@F
        with self.lock:  #@S
            items = list(self.series.items())  #@S
        for (name, labels), value in items:
            label_text = ",".join(f'{k}="{v}"' for k, v in labels)
            lines.append(f"{name}{{{label_text}}} {value}")
        return "\n".join(lines)
''',
"test_CID.py": r'''
import threading

from CID_registry import Registry


def test_scrape_while_requests_register_series():
    reg = Registry()
    for i in range(3200):
        reg.inc("http_requests_total", path=f"/items/{i}", code="200")
    stop = threading.Event()

    def traffic():
        i = 0
        while not stop.is_set():
            reg.inc("http_requests_total", path=f"/new/{i}", code="200")
            i += 1

    t = threading.Thread(target=traffic)
    t.start()
    try:
        text = reg.scrape()
    finally:
        stop.set()
        t.join()
    assert "http_requests_total" in text
'''}))

T.append(dict(
    topic="queue_stop_flag", cls="concurrency", test="test_consumer_processes_every_event",
    trigger="the consumer thread checks a stop flag before draining the queue; when it is still busy with the previous event as the producer enqueues the last one and sets the flag, the last event is dropped",
    robust="thread scheduling, machine load",
    files={
"CID_events.py": r'''
import queue
import threading
import time


class Consumer(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.q = queue.Queue()
        self.stopped = False
        self.handled = []

    def run(self):
        while not self.stopped:  #@F
            try:  #@F
                event = self.q.get(timeout=0.01)  #@F
            except queue.Empty:  #@F
                continue  #@F
        while True:  #@S
            event = self.q.get()  #@S
            if event is None:  #@S
                return  #@S
            self.handle(event)

    def handle(self, event):
        time.sleep(0.0008)  # write the event to the audit store
        self.handled.append(event)

    def stop(self):
        self.stopped = True  #@F
        self.q.put(None)  #@S
        self.join(5)


def produce(consumer, n):
    for i in range(n):
        time.sleep(0.001)  # wait for the next event from the socket
        consumer.q.put({"seq": i})
''',
"test_CID.py": r'''
from CID_events import Consumer, produce


def test_consumer_processes_every_event():
    consumer = Consumer()
    consumer.start()
    produce(consumer, 50)
    consumer.stop()
    assert [e["seq"] for e in consumer.handled] == list(range(50))
'''}))

# ---------------------------------------------------------------- io
T.append(dict(
    topic="config_hot_reload", cls="io", test="test_reader_never_sees_partial_config",
    trigger="the writer thread rewrites the config in place (truncate, then two writes); a reader that opens the file in between reads an empty or partial JSON document",
    robust="thread scheduling, machine load",
    files={
"CID_hotconfig.py": r'''
import json
import os
import time


def write_config(path, data):
    text = json.dumps(data)
    half = len(text) // 2
    with open(path, "w") as fh:  #@F
        fh.write(text[:half])  #@F
        fh.flush()  #@F
        fh.write(text[half:])  #@F
    tmp = f"{path}.tmp"  #@S
    with open(tmp, "w") as fh:  #@S
        fh.write(text[:half])  #@S
        fh.flush()  #@S
        fh.write(text[half:])  #@S
    os.replace(tmp, path)  #@S


def read_config(path):
    with open(path) as fh:
        return json.load(fh)


def rewriter(path, times, pause):
    for version in range(times):
        time.sleep(pause)
        write_config(path, {"version": version, "workers": 4, "feature_x": True})
''',
"test_CID.py": r'''
import threading
import time

from CID_hotconfig import read_config, rewriter, write_config


def test_reader_never_sees_partial_config(tmp_path):
    path = tmp_path / "app.json"
    write_config(path, {"version": -1, "workers": 4, "feature_x": True})
    writer = threading.Thread(target=rewriter, args=(path, 2, 0.01))
    writer.start()
    seen = set()
    while writer.is_alive():
        seen.add(read_config(path)["workers"])
        time.sleep(0.001)
    writer.join()
    assert seen == {4}
'''}))

# ---------------------------------------------------------------- infrastructure
T.append(dict(
    topic="worker_count_affinity", cls="infrastructure", test="test_work_split_into_one_chunk_per_worker",
    trigger="infrastructure: the worker count comes from the CPUs the process may use; the test assumes the 2-core dev box and fails on a 1-CPU runner (measured with taskset -c 0 under 'load')",
    robust="CPU affinity, machine load",
    files={
"CID_batch.py": r'''
import os


def default_workers():
    return len(os.sched_getaffinity(0))


def chunk(items, workers=None):
    workers = workers or default_workers()
    size = -(-len(items) // workers)
    return [items[i:i + size] for i in range(0, len(items), size)]
''',
"test_CID.py": r'''
from CID_batch import chunk


def test_work_split_into_one_chunk_per_worker():
    chunks = chunk(list(range(10)))  #@F
    chunks = chunk(list(range(10)), workers=2)  #@S
    assert chunks == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
'''}))

T.append(dict(
    topic="dotenv_settings", cls="infrastructure", test="test_database_name_from_env_file",
    trigger="infrastructure: the settings loader opens 'CID.env' relative to the current working directory; fails when pytest is started from another directory (cwd-parent)",
    robust="working directory",
    files={
"CID_settings.py": r'''
import pathlib

DEFAULTS = {"DB_NAME": "shop", "DB_HOST": "localhost"}


def load_settings(path):
    settings = dict(DEFAULTS)
    p = pathlib.Path(path)
    if p.exists():
        for line in p.read_text().splitlines():
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, value = line.partition("=")
                settings[key.strip()] = value.strip()
    return settings
''',
"CID.env": "# test settings\nDB_NAME=shop_test\nDB_HOST=127.0.0.1\n",
"test_CID.py": r'''
import pathlib

from CID_settings import load_settings

ENV_FILE = "CID.env"  #@F
ENV_FILE = pathlib.Path(__file__).with_name("CID.env")  #@S


def test_database_name_from_env_file():
    settings = load_settings(ENV_FILE)
    assert settings["DB_NAME"] == "shop_test"
'''}))

# ---------------------------------------------------------------- resource
T.append(dict(
    topic="heartbeat_thread_leak", cls="resource", test="test_shutdown_leaves_no_threads",
    trigger="resource leak / victim: fails after test_heartbeat_ticks (reversed order or module run twice); the polluter starts a heartbeat thread and never stops it",
    robust="test order, repetition",
    files={
"CID_heartbeat.py": r'''
import threading


class Heartbeat(threading.Thread):
    def __init__(self, interval):
        super().__init__(daemon=True, name="heartbeat")
        self.interval = interval
        self.ticks = 0
        self._stop_event = threading.Event()

    def run(self):
        while not self._stop_event.wait(self.interval):
            self.ticks += 1

    def stop(self):
        self._stop_event.set()
        self.join(5)


class Service:
    def __init__(self):
        self.workers = []

    def start(self, n):
        for _ in range(n):
            hb = Heartbeat(0.01)
            hb.start()
            self.workers.append(hb)

    def shutdown(self):
        for w in self.workers:
            w.stop()
''',
"test_CID.py": r'''
import threading
import time

from CID_heartbeat import Heartbeat, Service


def test_shutdown_leaves_no_threads():
    service = Service()
    service.start(3)
    service.shutdown()
    assert [t.name for t in threading.enumerate() if t is not threading.main_thread()] == []


def test_heartbeat_ticks():
    hb = Heartbeat(0.005)
    hb.start()
    time.sleep(0.05)
    assert hb.ticks > 0
    hb.stop()  #@S
'''}))

T.append(dict(
    topic="nightly_lockfile", cls="resource", test="test_nightly_job_runs",
    trigger="resource leak / victim: fails after test_second_runner_is_locked_out (reversed order or module run twice); the polluter takes the job lock file and never releases it",
    robust="test order, repetition",
    files={
"CID_jobs.py": r'''
import os
import tempfile

LOCK_DIR = tempfile.mkdtemp(prefix="CID-locks-")


class LockHeld(Exception):
    pass


class JobLock:
    def __init__(self, name):
        self.path = os.path.join(LOCK_DIR, f"{name}.lock")

    def acquire(self):
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            raise LockHeld(self.path) from None
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return self

    def release(self):
        os.unlink(self.path)


def run_nightly(rows):
    lock = JobLock("nightly").acquire()
    try:
        return sum(rows)
    finally:
        lock.release()
''',
"test_CID.py": r'''
import pytest

from CID_jobs import JobLock, LockHeld, run_nightly


def test_nightly_job_runs():
    assert run_nightly([1, 2, 3]) == 6


def test_second_runner_is_locked_out():
    first = JobLock("nightly").acquire()
    try:  #@S
        with pytest.raises(LockHeld):  #@S
            JobLock("nightly").acquire()  #@S
    finally:  #@S
        first.release()  #@S
    with pytest.raises(LockHeld):  #@F
        JobLock("nightly").acquire()  #@F
'''}))
