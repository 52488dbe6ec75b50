# Time, concurrency, async wait, network (127.0.0.1 only), infrastructure/environment and I/O topics.
T = []

# ---------------- time ----------------
T.append(dict(
    topic="token_expiry_utcnow", cls="time", test="test_reset_token_expires_in_15_minutes",
    trigger="time zone: naive datetime.utcnow() is passed to .timestamp(), which interprets it as local time; any TZ other than UTC (TZ=XYZ+5, TZ=ABC-12, Europe/Berlin) shifts the expiry by hours",
    robust="time zone, time of day",
    files={
"CID_tokens.py": r'''
"""Password-reset tokens carry their expiry as a Unix timestamp."""
import secrets
from datetime import datetime, timedelta, timezone  # noqa: F401

VALIDITY = timedelta(minutes=15)


def issue_reset_token(user_id):
    expires_at = datetime.utcnow() + VALIDITY  #@F
    expires_at = datetime.now(timezone.utc) + VALIDITY  #@S
    return {"user": user_id, "token": secrets.token_urlsafe(16), "exp": int(expires_at.timestamp())}
''',
"test_CID.py": r'''
import time

from CID_tokens import issue_reset_token


def test_reset_token_expires_in_15_minutes():
    before = time.time()
    tok = issue_reset_token(42)
    remaining = tok["exp"] - before
    assert 15 * 60 - 5 <= remaining <= 15 * 60, remaining
'''}))

T.append(dict(
    topic="same_day_shipping", cls="time", test="test_order_placed_now_ships_today",
    trigger="time of day / time zone: orders after the 17:00 local cut-off ship tomorrow, and the test uses the real local clock (fails when local time >= 17:00, e.g. plain UTC runs after 17:00 UTC or TZ=Europe/Berlin after 16:00 UTC)",
    robust="time zone, time of day, date",
    files={
"CID_shipping.py": r'''
"""Dispatch date promise shown at checkout."""
from datetime import date, datetime, time, timedelta  # noqa: F401

CUTOFF = time(17, 0)


def dispatch_date(placed_at):
    if placed_at.time() < CUTOFF:
        return placed_at.date()
    return placed_at.date() + timedelta(days=1)


def checkout_promise(now=None):
    now = now or datetime.now()
    return {"dispatch": dispatch_date(now), "message": f"Ships {dispatch_date(now):%a %d %b}"}
''',
"test_CID.py": r'''
from datetime import date, datetime

from CID_shipping import checkout_promise, dispatch_date


def test_order_placed_now_ships_today():
    promise = checkout_promise()  #@F
    assert promise["dispatch"] == date.today()  #@F
    now = datetime(2026, 3, 10, 11, 45)  #@S
    promise = checkout_promise(now)  #@S
    assert promise["dispatch"] == now.date()  #@S


def test_late_order_ships_next_day():
    assert dispatch_date(datetime(2026, 3, 10, 18, 5)) == date(2026, 3, 11)
'''}))

T.append(dict(
    topic="renewal_next_month", cls="time", test="test_monthly_plan_renews_next_month",
    trigger="date: date.replace(month=month + 1) raises ValueError in December (month 13) and on the 29th-31st when the next month is shorter; passes e.g. on 2026-06-10 (faketime-june)",
    robust="date, time zone",
    files={
"CID_billing.py": r'''
"""Subscription renewals."""
import calendar
from datetime import date


def add_month(d):
    return d.replace(month=d.month + 1)  #@F
    year, month = divmod(d.month, 12)  #@S
    year, month = d.year + year, month + 1  #@S
    return d.replace(year=year, month=month, day=min(d.day, calendar.monthrange(year, month)[1]))  #@S


def next_renewal(started_on=None):
    return add_month(started_on or date.today())
''',
"test_CID.py": r'''
from datetime import date

from CID_billing import next_renewal


def test_monthly_plan_renews_next_month():
    today = date.today()
    renewal = next_renewal()
    assert renewal > today
    assert 28 <= (renewal - today).days <= 31
'''}))

T.append(dict(
    topic="weekend_surcharge", cls="time", test="test_standard_delivery_price",
    trigger="date: the surcharge applies on Saturdays and Sundays (local date) and the test prices 'now'; fails on weekends (faketime-weekend: 2026-12-05, a Saturday)",
    robust="date, time zone",
    files={
"CID_delivery.py": r'''
"""Courier delivery prices (cents)."""
from datetime import date

BASE_CENTS = 499
WEEKEND_SURCHARGE_CENTS = 300


def delivery_price(on=None, express=False):
    day = on or date.today()
    price = BASE_CENTS + (500 if express else 0)
    if day.weekday() >= 5:
        price += WEEKEND_SURCHARGE_CENTS
    return price
''',
"test_CID.py": r'''
from datetime import date

from CID_delivery import delivery_price


def test_standard_delivery_price():
    assert delivery_price() == 499  #@F
    assert delivery_price(express=True) == 999  #@F
    tuesday = date(2026, 12, 1)  #@S
    assert delivery_price(tuesday) == 499  #@S
    assert delivery_price(tuesday, express=True) == 999  #@S


def test_saturday_surcharge():
    assert delivery_price(date(2026, 12, 5)) == 799
'''}))

# ---------------- concurrency ----------------
T.append(dict(
    topic="upstream_config_swap", cls="concurrency", test="test_readers_never_see_torn_address",
    trigger="thread scheduling: reload() assigns host and port in two steps with a file read in between (GIL released), so a request thread can observe the new host with the old port",
    robust="thread scheduling, CPU load",
    files={
"CID_upstream.py": r'''
"""Upstream address for the reverse proxy, hot-reloaded from a JSON file."""
import json
from pathlib import Path


class UpstreamConfig:
    def __init__(self, host, port):
        self.host, self.port = host, port  #@F
        self._address = (host, port)  #@S

    def reload(self, path):
        data = json.loads(Path(path).read_text())
        self.host = data["host"]  #@F
        self.port = self._port_for(data)  #@F
        self._address = (data["host"], self._port_for(data))  #@S

    @staticmethod
    def _port_for(data):
        if "port" in data:
            return int(data["port"])
        services = Path(data["services_file"]).read_text().split()
        return int(services[services.index(data["service"]) + 1])

    def address(self):
        return (self.host, self.port)  #@F
        return self._address  #@S
''',
"test_CID.py": r'''
import json
import threading
import time

from CID_upstream import UpstreamConfig

A = ("10.0.0.5", 8080)
B = ("10.0.0.9", 9090)


def test_readers_never_see_torn_address(tmp_path):
    services = tmp_path / "services"
    services.write_text("http 8080\napi 9090\n")
    files = []
    for i, (host, port) in enumerate([A, B]):
        f = tmp_path / f"upstream{i}.json"
        f.write_text(json.dumps({"host": host, "service": {8080: "http", 9090: "api"}[port],
                                 "services_file": str(services)}))
        files.append(f)
    cfg = UpstreamConfig(*A)
    seen = set()
    stop = threading.Event()

    def handle_requests():
        while not stop.is_set():
            seen.add(cfg.address())
            time.sleep(0.0005)

    workers = [threading.Thread(target=handle_requests) for _ in range(2)]
    for w in workers:
        w.start()
    for i in range(RELOADS):
        cfg.reload(files[(i + 1) % 2])
        time.sleep(0.002)
    stop.set()
    for w in workers:
        w.join()
    assert seen <= {A, B}, seen - {A, B}


RELOADS = 40
'''}))

T.append(dict(
    topic="request_user_global", cls="concurrency", test="test_each_request_renders_its_own_user",
    trigger="thread scheduling: the current user is a module global instead of threading.local; when two requests of a burst overlap in the 3-thread pool (the template read releases the GIL) one renders the other's user",
    robust="thread scheduling, CPU load",
    files={
"CID_webapp.py": r'''
"""Minimal request handling with a 'current user' available to templates."""
import threading  # noqa: F401
from pathlib import Path

TEMPLATE = Path(__file__).with_name("CID_greeting.txt")
_current_user = None  #@F
_local = threading.local()  #@S


def set_current_user(user):
    global _current_user  #@F
    _current_user = user  #@F
    _local.user = user  #@S


def current_user():
    return _current_user  #@F
    return _local.user  #@S


def render_dashboard():
    template = TEMPLATE.read_text()  # file system read: releases the GIL
    return template.format(user=current_user())


def handle(request_user):
    set_current_user(request_user)
    return render_dashboard()
''',
"CID_greeting.txt": "Hello {user}, you have 3 new messages.\n",
"test_CID.py": r'''
import time
from concurrent.futures import ThreadPoolExecutor

from CID_webapp import handle

USERS = [f"user{i}" for i in range(12)]


def test_each_request_renders_its_own_user():
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = []
        for u in USERS:
            futures.append((u, pool.submit(handle, u)))
            time.sleep(0)  # the accept loop yields between requests of a page load burst
        pages = {u: f.result() for u, f in futures}
    for u, page in pages.items():
        assert page.startswith(f"Hello {u},"), (u, page)
'''}))

# ---------------- async wait ----------------
T.append(dict(
    topic="receipt_email_task", cls="async-wait", test="test_placing_order_emails_receipt",
    trigger="async wait: the receipt is sent by a fire-and-forget asyncio task that renders the PDF in a worker thread (~15-25 ms); the test waits a fixed 40 ms (fails on a busy machine, e.g. under taskset -c 0 with a CPU hog)",
    robust="CPU load, scheduling",
    files={
"CID_orders.py": r'''
"""Order placement; the receipt e-mail is sent in the background."""
import asyncio
import zlib


def render_receipt_pdf(order_id, lines):
    # stand-in for the PDF renderer (pure Python, CPU bound, ~15-25 ms on an idle machine)
    rows = [f"{order_id};{sku};{qty};{page}" for page in range(PAGES) for sku, qty in lines]
    checksum = 0
    for row in rows:
        for ch in row:
            checksum = (checksum * 31 + ord(ch)) & 0xFFFFFFFF
    return zlib.compress("\n".join(rows).encode()) + checksum.to_bytes(4, "big")


PAGES = 1500


class OrderService:
    def __init__(self):
        self.orders = []
        self.sent = []
        self._tasks = set()

    async def place(self, order_id, email, lines):
        self.orders.append(order_id)
        task = asyncio.get_running_loop().create_task(self._send_receipt(order_id, email, lines))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return order_id

    async def _send_receipt(self, order_id, email, lines):
        pdf = await asyncio.to_thread(render_receipt_pdf, order_id, lines)
        self.sent.append((email, order_id, len(pdf)))

    async def drain(self):
        while self._tasks:
            await asyncio.gather(*list(self._tasks))
''',
"test_CID.py": r'''
import asyncio

from CID_orders import OrderService


def test_placing_order_emails_receipt():
    async def scenario():
        svc = OrderService()
        await svc.place("A-100", "ana@example.test", [("mug", 2), ("tea", 1)])
        await asyncio.sleep(0.04)  # give the background task time to send  #@F
        await svc.drain()  #@S
        return svc

    svc = asyncio.run(scenario())
    assert [(e, o) for e, o, _ in svc.sent] == [("ana@example.test", "A-100")]
'''}))

T.append(dict(
    topic="export_job_polling", cls="async-wait", test="test_export_job_finishes",
    trigger="async wait: the test polls the background export job only 3 times at 10 ms intervals while the job needs ~40-70 ms of CPU shared with the polling thread (GIL); fails whenever the job is not done by the third poll (busy machine, slow runner)",
    robust="CPU load, scheduling",
    files={
"CID_exports.py": r'''
"""CSV exports run in a background thread; the UI polls the job status."""
import csv
import io
import threading


class ExportJob:
    def __init__(self, rows):
        self.rows = rows
        self.status = "queued"
        self.result = None
        self._done = threading.Event()

    def start(self):
        threading.Thread(target=self._run, daemon=True).start()
        return self

    def _run(self):
        self.status = "running"
        buf = io.StringIO()
        w = csv.writer(buf)
        for r in self.rows:
            w.writerow([r["id"], r["email"].lower(), f"{r['total'] / 100:.2f}"])
        self.result = buf.getvalue()
        self.status = "done"
        self._done.set()

    def wait(self, timeout=None):
        return self._done.wait(timeout)
''',
"test_CID.py": r'''
import time

from CID_exports import ExportJob

ROWS = [{"id": i, "email": f"User{i}@Example.test", "total": 1999 + i} for i in range(12000)]


def test_export_job_finishes():
    job = ExportJob(ROWS).start()
    for _ in range(3):  #@F
        if job.status == "done":  #@F
            break  #@F
        time.sleep(0.01)  #@F
    assert job.wait(timeout=10)  #@S
    assert job.status == "done"
    assert job.result.splitlines()[0] == "0,user0@example.test,19.99"
'''}))

# ---------------- network (127.0.0.1 only) ----------------
T.append(dict(
    topic="statsd_udp_sink", cls="network", test="test_counter_reaches_statsd",
    trigger="network/async wait: the fake statsd server binds its UDP socket inside the server thread, so a datagram sent right after thread.start() can arrive before the port is bound and is silently dropped",
    robust="thread scheduling, CPU load",
    files={
"CID_statsd.py": r'''
"""StatsD client (fire-and-forget UDP) and a test sink."""
import socket
import threading


class StatsClient:
    def __init__(self, host, port, prefix="shop"):
        self.addr = (host, port)
        self.prefix = prefix
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

    def incr(self, name, value=1):
        self.sock.sendto(f"{self.prefix}.{name}:{value}|c".encode(), self.addr)

    def close(self):
        self.sock.close()


class StatsSink(threading.Thread):
    """Collects datagrams sent to (host, port)."""

    def __init__(self, host, port):
        super().__init__(daemon=True)
        self.addr = (host, port)
        self.packets = []
        self.ready = threading.Event()
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  #@S
        self.sock.bind(self.addr)  #@S
        self.ready.set()  #@S

    def run(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)  #@F
        self.sock.bind(self.addr)  #@F
        self.ready.set()  #@F
        self.sock.settimeout(0.5)
        try:
            while True:
                data, _ = self.sock.recvfrom(2048)
                self.packets.append(data.decode())
        except (socket.timeout, OSError):
            pass
        finally:
            self.sock.close()
''',
"test_CID.py": r'''
import socket
import time

from CID_statsd import StatsClient, StatsSink


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_counter_reaches_statsd():
    port = free_udp_port()
    sink = StatsSink("127.0.0.1", port)
    sink.start()
    client = StatsClient("127.0.0.1", port)
    client.incr("checkout.completed")
    client.close()
    deadline = time.monotonic() + 0.3
    while not sink.packets and time.monotonic() < deadline:
        time.sleep(0.005)
    assert sink.packets == ["shop.checkout.completed:1|c"]
'''}))

T.append(dict(
    topic="rpc_single_recv", cls="network", test="test_inventory_rpc_returns_all_items",
    trigger="network: the client reads the reply with a single recv(); the local server writes the status line and then serialises and writes the body, so recv() returns a partial reply whenever the client thread runs between them",
    robust="thread scheduling, CPU load, message size",
    files={
"CID_rpc.py": r'''
"""JSON RPC to the inventory service: reply is 'OK <id>\n' followed by the JSON body, then close."""
import json
import socket
import threading


def serve_once(listener, handler):
    conn, _ = listener.accept()
    with conn:
        request = json.loads(conn.recv(65536).decode())
        conn.sendall(f"OK {request['id']}\n".encode())  # status line first, then the streamed body
        conn.sendall(json.dumps(handler(request)).encode())


def start_server(handler):
    listener = socket.create_server(("127.0.0.1", 0))
    t = threading.Thread(target=serve_once, args=(listener, handler), daemon=True)
    t.start()
    return listener, t


def call(port, method, **params):
    with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
        s.sendall(json.dumps({"id": 7, "method": method, "params": params}).encode())
        reply = s.recv(1 << 20)  # replies are far below 1 MiB  #@F
        reply = s.makefile("rb").read()  # until the server closes the connection  #@S
        status, _, body = reply.partition(b"\n")
        assert status == b"OK 7", status
        return json.loads(body.decode())
''',
"test_CID.py": r'''
from CID_rpc import call, start_server


def inventory(request):
    return {"items": [{"sku": f"SKU-{i}", "qty": i % 7} for i in range(request["params"]["limit"])]}


def test_inventory_rpc_returns_all_items():
    listener, thread = start_server(inventory)
    try:
        result = call(listener.getsockname()[1], "list_items", limit=2500)
    finally:
        thread.join(2)
        listener.close()
    assert len(result["items"]) == 2500
'''}))

# ---------------- infrastructure / environment ----------------
T.append(dict(
    topic="catalog_db_cwd", cls="infrastructure", test="test_catalog_lists_categories",
    trigger="working directory: the read-only catalog database is opened by a relative file name, so the test fails when pytest is started from another directory (cwd-parent)",
    robust="working directory",
    files={
"CID_catalog.py": r'''
"""Product catalog shipped as a read-only sqlite database next to the code."""
import sqlite3
from pathlib import Path  # noqa: F401

DB_NAME = "CID_catalog.sqlite"


def open_catalog():
    return sqlite3.connect(f"file:{DB_NAME}?mode=ro", uri=True)  #@F
    return sqlite3.connect(f"file:{Path(__file__).with_name(DB_NAME)}?mode=ro", uri=True)  #@S


def categories():
    with open_catalog() as conn:
        return [r[0] for r in conn.execute("SELECT name FROM categories ORDER BY name")]
''',
"CID_catalog.sqlite": r'''
CREATE TABLE categories (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO categories (name) VALUES ('tools'), ('kitchen'), ('garden');
''',
"test_CID.py": r'''
from CID_catalog import categories


def test_catalog_lists_categories():
    assert categories() == ["garden", "kitchen", "tools"]
'''}))

T.append(dict(
    topic="progress_bar_width", cls="infrastructure", test="test_progress_line_fits_80_columns",
    trigger="terminal size: the bar width comes from shutil.get_terminal_size(), so the line is 80 columns only when COLUMNS is unset and stdout is not a terminal (fails with COLUMNS=132, e.g. a CI runner that exports COLUMNS or a wide terminal)",
    robust="terminal size, COLUMNS",
    files={
"CID_progress.py": r'''
"""Text progress bar for the migration CLI."""
import shutil


def progress_line(done, total, label="migrating", width=None):
    width = width or shutil.get_terminal_size(fallback=(80, 24)).columns
    prefix = f"{label} {done}/{total} ["
    suffix = f"] {100 * done // total:3d}%"
    room = max(10, width - len(prefix) - len(suffix))
    filled = room * done // total
    return prefix + "#" * filled + "." * (room - filled) + suffix
''',
"test_CID.py": r'''
from CID_progress import progress_line


def test_progress_line_fits_80_columns():
    line = progress_line(37, 120)  #@F
    line = progress_line(37, 120, width=80)  #@S
    assert len(line) == 80
    assert line.startswith("migrating 37/120 [###")
    assert line.endswith("]  30%")
'''}))

T.append(dict(
    topic="thumbnail_shards", cls="infrastructure", test="test_batches_are_spread_over_workers",
    trigger="CPU count: the number of shards is len(os.sched_getaffinity(0)); with a single usable CPU (taskset -c 0, 1-CPU CI runners) one shard gets all 100 images",
    robust="CPU count / affinity",
    files={
"CID_shards.py": r'''
"""Split thumbnail jobs into one shard per usable CPU."""
import os


def worker_count():
    return len(os.sched_getaffinity(0))


def shard(items, workers=None):
    workers = workers or worker_count()
    shards = [[] for _ in range(workers)]
    for i, item in enumerate(items):
        shards[i % workers].append(item)
    return shards
''',
"test_CID.py": r'''
from CID_shards import shard

IMAGES = [f"img_{i:03d}.jpg" for i in range(100)]


def test_batches_are_spread_over_workers():
    shards = shard(IMAGES)  #@F
    shards = shard(IMAGES, workers=2)  #@S
    assert sum(map(len, shards)) == 100
    assert max(map(len, shards)) <= 50
'''}))

T.append(dict(
    topic="no_color_env", cls="infrastructure", test="test_status_badge_is_green",
    trigger="environment variable: the colour helper honours NO_COLOR (no-color.org); fails when NO_COLOR is set in the environment (env-no-color), as on developer machines and CI images that export it",
    robust="environment variables",
    files={
"CID_style.py": r'''
"""ANSI styling for the deploy CLI."""
import os

CODES = {"green": 32, "red": 31, "yellow": 33}


def colors_enabled():
    return not os.environ.get("NO_COLOR")


def style(text, color):
    if not colors_enabled():
        return text
    return f"\x1b[{CODES[color]}m{text}\x1b[0m"


def status_badge(ok):
    return style("PASS", "green") if ok else style("FAIL", "red")
''',
"test_CID.py": r'''
from CID_style import status_badge


def test_status_badge_is_green(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)  #@S
    assert status_badge(True) == "\x1b[32mPASS\x1b[0m"
'''}))

# ---------------- I/O ----------------
T.append(dict(
    topic="invoice_render_tmpfiles", cls="io", test="test_render_leaves_no_temp_files",
    trigger="temporary files / parallel runs: the test checks for leftover 'invoice-render-*' files in the shared system temp dir, where a concurrently running test process (parallel2, pytest-xdist, two CI jobs on one runner) creates and removes its own",
    robust="parallel runs, temp dir contents",
    files={
"CID_render.py": r'''
"""Invoice rendering shells out to a converter that needs a real file; we clean up afterwards."""
import os
import tempfile
import time


def render_invoice(invoice_id, lines, workdir=None):
    fd, path = tempfile.mkstemp(prefix="invoice-render-", suffix=".html", dir=workdir)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(f"<h1>Invoice {invoice_id}</h1>")
            for sku, cents in lines:
                f.write(f"<p>{sku}: {cents / 100:.2f}</p>")
        time.sleep(0.02)  # the converter reads the file
        with open(path) as f:
            return f.read().encode()
    finally:
        os.unlink(path)
''',
"test_CID.py": r'''
import glob
import os
import tempfile

from CID_render import render_invoice


def test_render_leaves_no_temp_files(tmp_path):
    tmpdir = tempfile.gettempdir()  #@F
    tmpdir = str(tmp_path)  #@S
    pattern = os.path.join(tmpdir, "invoice-render-*")
    before = set(glob.glob(pattern))
    for n in range(15):
        render_invoice(f"2026-{n:04d}", [("A", 1999), ("B", 500)], workdir=tmpdir)
    assert set(glob.glob(pattern)) == before
'''}))
