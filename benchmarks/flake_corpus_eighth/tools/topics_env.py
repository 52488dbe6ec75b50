# Threads, load-dependent timeouts, asyncio and shared-host (two copies of a test at once) topics.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

# ---------------------------------------------------------------------------------------- concurrency
T.append(dict(
    topic="page_view_counter", cls="concurrency", test="test_concurrent_hits_are_counted",
    trigger="thread race: hit() reads the count, calls the access logger, then writes count + 1 without a lock; when the GIL switches threads inside the logger call an increment is lost",
    robust="thread scheduling, machine load (lock around read-modify-write)",
    conds=["load"],
    files={
"CID_views.py": r'''
"""Page-view counter of the analytics middleware."""
import threading


class ViewCounter:
    def __init__(self):
        self.views = {}
        self.access_log = []
        self._lock = threading.Lock()

    def _log(self, page):
        self.access_log.append(page)

    def hit(self, page):
        current = self.views.get(page, 0)  #@F
        self._log(page)  #@F
        self.views[page] = current + 1  #@F
        with self._lock:  #@S
            current = self.views.get(page, 0)  #@S
            self._log(page)  #@S
            self.views[page] = current + 1  #@S
''',
"test_CID.py": r'''
import threading

import CID_views as views

HITS = 30000


def test_concurrent_hits_are_counted():
    counter = views.ViewCounter()
    start = threading.Barrier(4)

    def worker():
        start.wait()
        for _ in range(HITS):
            counter.hit("/pricing")

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert counter.views["/pricing"] == 4 * HITS
''',
    }))

T.append(dict(
    topic="thumbnail_results_order", cls="concurrency", test="test_thumbnails_in_upload_order",
    trigger="thread scheduling: each finished render appends its path from a done-callback, i.e. in completion order, and the test expects upload order; the 4 renders (hashing, zlib and a file write that release the GIL) finish out of order in roughly a third to half of runs",
    robust="thread scheduling, machine load (results in submission order)",
    conds=["load"],
    files={
"CID_thumbs.py": r'''
"""Thumbnail generation for an upload batch."""
import concurrent.futures as cf
import hashlib
import os
import zlib


def render(name, out_dir, size=1000):
    data = (name * 100).encode()
    pixels = b"".join(hashlib.sha256(data + bytes([i % 256])).digest() for i in range(size))
    path = os.path.join(out_dir, name + ".thumb")
    with open(path, "wb") as fh:
        fh.write(zlib.compress(pixels, 1))
    return path


def render_batch(names, out_dir):
    done = []  #@F
    with cf.ThreadPoolExecutor(max_workers=4) as pool:
        for name in names:  #@F
            pool.submit(render, name, out_dir).add_done_callback(lambda f: done.append(f.result()))  #@F
        futures = [pool.submit(render, name, out_dir) for name in names]  #@S
    return done  #@F
    return [f.result() for f in futures]  #@S
''',
"test_CID.py": r'''
import os

import CID_thumbs as thumbs


def test_thumbnails_in_upload_order(tmp_path):
    names = ["a.png", "b.png", "c.png", "d.png"]
    paths = thumbs.render_batch(names, str(tmp_path))
    assert [os.path.basename(p) for p in paths] == [n + ".thumb" for n in names]
''',
    }))

# ------------------------------------------------------------------------------------- timing (load)
T.append(dict(
    topic="pdf_render_deadline", cls="timing", test="test_invoice_pdf_renders_in_time",
    trigger="load: the renderer enforces a 0.04 s deadline (time.monotonic) on ~15 ms of CPU work (idle); when the process shares its core with another busy process the deadline is missed",
    robust="machine load (deadline generous for a test, 30 s)",
    conds=["load"],
    files={
"CID_pdf.py": r'''
"""Invoice PDF rendering (layout pass) with a per-document deadline."""
import time
import zlib


class RenderTimeout(Exception):
    pass


def render(lines, deadline_s):
    start = time.monotonic()
    pages = []
    for i, line in enumerate(lines):
        glyphs = zlib.compress((line * 40).encode(), 9)
        pages.append(len(glyphs))
        if i % 50 == 0 and time.monotonic() - start > deadline_s:
            raise RenderTimeout(f"gave up after {i} lines")
    return pages
''',
"test_CID.py": r'''
import CID_pdf as pdf

LINES = [f"{i:05d} Widget, blue, 3 pcs ........ {i * 3.1:10.2f} EUR" for i in range(1500)]
DEADLINE = 0.04  #@F
DEADLINE = 30.0  #@S


def test_invoice_pdf_renders_in_time():
    assert len(pdf.render(LINES, deadline_s=DEADLINE)) == 1500
''',
    }))

T.append(dict(
    topic="thumbnail_subprocess_timeout", cls="timing", test="test_resize_cli_finishes",
    trigger="load: the resize helper runs in a child Python process with subprocess.run(timeout=0.12); start-up plus work is ~45 ms idle and two to three times that on a busy core, so TimeoutExpired",
    robust="machine load (timeout 60 s)",
    conds=["load"],
    files={
"CID_resize.py": r'''
"""Runs the image resizer as a child process (it is isolated because the codec segfaults sometimes)."""
import subprocess
import sys

WORK = "import hashlib\nd=b'x'\nfor _ in range(60000): d=hashlib.md5(d).digest()\nprint('ok 64x64')"


def resize(timeout):
    out = subprocess.run([sys.executable, "-I", "-S", "-c", WORK], capture_output=True, text=True,
                         timeout=timeout, check=True)
    return out.stdout.strip()
''',
"test_CID.py": r'''
import CID_resize as resize


def test_resize_cli_finishes():
    assert resize.resize(timeout=0.12) == "ok 64x64"  #@F
    assert resize.resize(timeout=60) == "ok 64x64"  #@S
''',
    }))

T.append(dict(
    topic="json_encode_perf_budget", cls="timing", test="test_catalog_export_is_fast",
    trigger="load: a performance assertion (elapsed < 0.08 s) around ~25 ms of JSON encoding; on a shared or busy core the wall-clock time exceeds it",
    robust="machine load (measures work done, not wall time)",
    conds=["load"],
    files={
"CID_export.py": r'''
"""Product catalogue export for the storefront CDN."""
import json


def export_catalog(products):
    return json.dumps({"products": products}, sort_keys=True, indent=1)
''',
"test_CID.py": r'''
import json
import time

import CID_export as export

PRODUCTS = [{"sku": f"SKU{i:05d}", "name": f"Item {i}", "price": i * 0.5, "tags": ["a", "b", str(i)]}
            for i in range(6000)]


def test_catalog_export_is_fast():
    start = time.perf_counter()
    text = export.export_catalog(PRODUCTS)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.08, f"export took {elapsed:.3f}s"  #@F
    assert len(json.loads(text)["products"]) == 6000  #@S
''',
    }))

T.append(dict(
    topic="report_worker_queue_timeout", cls="timing", test="test_report_is_delivered",
    trigger="load: the test takes the report from the worker's result queue with get(timeout=0.1) while the worker thread needs ~25-35 ms of CPU; on a busy core queue.Empty is raised",
    robust="machine load (get with a 30 s timeout)",
    conds=["load"],
    files={
"CID_worker.py": r'''
"""Background report worker: jobs in, finished reports out."""
import queue
import statistics
import threading


class ReportWorker:
    def __init__(self):
        self.jobs = queue.Queue()
        self.results = queue.Queue()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self):
        while True:
            job = self.jobs.get()
            values = [((i * 7919) % 1000) / 10 for i in range(job["rows"])]
            self.results.put({"id": job["id"], "median": statistics.median(values),
                              "stdev": round(statistics.pstdev(values), 3)})
''',
"test_CID.py": r'''
import CID_worker as worker


def test_report_is_delivered():
    w = worker.ReportWorker()
    w.jobs.put({"id": "monthly", "rows": 60000})
    report = w.results.get(timeout=0.1)  #@F
    report = w.results.get(timeout=30)  #@S
    assert report["id"] == "monthly"
''',
    }))

# ------------------------------------------------------------------------------------------- asyncio
T.append(dict(
    topic="search_reindex_wait_for", cls="async-wait", test="test_reindex_completes",
    trigger="asyncio timeout under load: asyncio.wait_for(asyncio.to_thread(reindex), 0.06) around ~22 ms of CPU in a worker thread (idle)",
    robust="machine load (no short timeout)",
    conds=["load"],
    files={
"CID_search.py": r'''
"""Search index maintenance for the help centre."""
import asyncio
import re


def reindex(docs):
    index = {}
    for doc_id, text in docs.items():
        for word in re.findall(r"[a-z]+", text.lower()):
            index.setdefault(word, set()).add(doc_id)
    return index


async def reindex_async(docs, timeout):
    return await asyncio.wait_for(asyncio.to_thread(reindex, docs), timeout)
''',
"test_CID.py": r'''
import asyncio

import CID_search as search

DOCS = {i: f"How to reset password {i} for account number {i * 17} and billing plan" * 4 for i in range(2500)}


def test_reindex_completes():
    index = asyncio.run(search.reindex_async(DOCS, timeout=0.06))  #@F
    index = asyncio.run(search.reindex_async(DOCS, timeout=None))  #@S
    assert index["password"] == set(DOCS)
''',
    }))

T.append(dict(
    topic="chat_server_readline_timeout", cls="async-wait", test="test_server_greets_client",
    trigger="asyncio timeout under load: after HELLO the client waits 0.07 s for the greeting line while the server renders the room history in a worker thread (~25-30 ms idle)",
    robust="machine load (generous timeout)",
    conds=["load"],
    files={
"CID_chat.py": r'''
"""Tiny line-based chat server."""
import asyncio
import json

HISTORY = [{"user": f"u{i % 17}", "text": f"message number {i}", "ts": 1700000000 + i} for i in range(6000)]


def render_history():
    return [json.dumps(m) for m in HISTORY]


async def handle(reader, writer):
    await reader.readline()  # HELLO <room>
    rendered = await asyncio.to_thread(render_history)  # off the loop: other clients keep chatting
    writer.write(f"WELCOME {len(rendered)}\n".encode())
    await writer.drain()
    writer.close()


async def greet(timeout):
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"HELLO lobby\n")
        await writer.drain()
        try:
            return (await asyncio.wait_for(reader.readline(), timeout)).decode().strip()
        finally:
            writer.close()
''',
"test_CID.py": r'''
import asyncio

import CID_chat as chat


def test_server_greets_client():
    assert asyncio.run(chat.greet(timeout=0.07)) == "WELCOME 6000"  #@F
    assert asyncio.run(chat.greet(timeout=30)) == "WELCOME 6000"  #@S
''',
    }))

T.append(dict(
    topic="editor_autosave_task", cls="async-wait", test="test_autosave_writes_draft",
    trigger="fire-and-forget task: autosave is scheduled with create_task() and the test only sleeps 20 ms before reading the file; the save serialises the draft in a thread (~10 ms idle), so on a busy core the file is not written yet",
    robust="machine load (the test awaits editor.flush())",
    conds=["load"],
    files={
"CID_editor.py": r'''
"""Autosave for the document editor."""
import asyncio
import json


class Editor:
    def __init__(self, path):
        self.path = path
        self.text = ""
        self._pending = set()

    def type(self, text):
        self.text += text
        task = asyncio.get_running_loop().create_task(self._save())
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _save(self):
        snapshot = {"text": self.text, "words": self.text.split()}
        await asyncio.to_thread(self.path.write_text, json.dumps(snapshot, indent=2))

    async def flush(self):
        while self._pending:
            await asyncio.gather(*list(self._pending))
''',
"test_CID.py": r'''
import asyncio
import json

import CID_editor as editor_mod


def test_autosave_writes_draft(tmp_path):
    async def scenario():
        ed = editor_mod.Editor(tmp_path / "draft.json")
        ed.type("lorem ipsum dolor sit amet " * 6000)
        await asyncio.sleep(0.02)  #@F
        await ed.flush()  #@S
        return json.loads((tmp_path / "draft.json").read_text())

    assert asyncio.run(scenario())["text"].startswith("lorem ipsum")
''',
    }))

# --------------------------------------------------------------------------------------- shared host
T.append(dict(
    topic="invoice_batch_tmp_csv", cls="shared-host", test="test_batch_export_roundtrip",
    trigger="shared host: the export writes a fixed /tmp/CID-invoices.csv and reads it back; when two copies of the test run at once (xdist workers of two jobs on one runner) one truncates/rewrites the file while the other reads, so the row count or the content is wrong",
    robust="two copies at once (a per-test tmp_path)",
    conds=["parallel2"],
    files={
"CID_batch.py": r'''
"""Nightly invoice batch export."""
import csv


def export(rows, path):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["invoice", "customer", "amount"])
        for i, row in enumerate(rows):
            w.writerow(row)
            if i % 200 == 0:
                fh.flush()  # the spool reader tails the file


def read_back(path):
    with open(path, newline="") as fh:
        return list(csv.reader(fh))[1:]
''',
"test_CID.py": r'''
import uuid

import CID_batch as batch

BATCH = uuid.uuid4().hex[:8]
ROWS = [[f"INV-{BATCH}-{i:06d}", f"cust{i % 97}", f"{i * 1.25:.2f}"] for i in range(40000)]


def test_batch_export_roundtrip(tmp_path):
    path = "/tmp/CID-invoices.csv"  #@F
    path = tmp_path / "invoices.csv"  #@S
    batch.export(ROWS, path)
    assert batch.read_back(path) == ROWS
''',
    }))

T.append(dict(
    topic="metrics_exporter_fixed_port", cls="shared-host", test="test_metrics_endpoint_serves",
    trigger="shared host: the test starts the metrics HTTP server on the fixed port 47811; a second copy running at the same time (another xdist worker / job on the runner) gets 'Address already in use'",
    robust="two copies at once (port 0, the OS picks a free port)",
    conds=["parallel2"],
    files={
"CID_metrics.py": r'''
"""Prometheus-style metrics endpoint."""
import http.server
import threading

COUNTERS = {"orders_total": 12, "refunds_total": 1}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = "".join(f"{k} {v}\n" for k, v in sorted(COUNTERS.items())).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def start(port):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
''',
"test_CID.py": r'''
import time
import urllib.request

import CID_metrics as metrics


def test_metrics_endpoint_serves():
    server = metrics.start(47811)  #@F
    server = metrics.start(0)  #@S
    try:
        port = server.server_address[1]
        for _ in range(20):  # scrape a few times, like the collector does
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as resp:
                assert b"orders_total 12" in resp.read()
            time.sleep(0.005)
    finally:
        server.shutdown()
        server.server_close()
''',
    }))

T.append(dict(
    topic="snapshot_file_in_tree", cls="shared-host", test="test_render_matches_snapshot",
    trigger="shared host: the test writes its output next to the test module (CID_report.actual.txt in the working tree), compares it with the snapshot and deletes it; two copies at once in the same checkout overwrite or delete each other's file (wrong content or FileNotFoundError)",
    robust="two copies at once (output in tmp_path)",
    conds=["parallel2"],
    files={
"CID_report.py": r'''
"""Plain-text monthly report."""


def render(rows, out_path):
    with open(out_path, "w") as fh:
        for i, (name, amount) in enumerate(rows):
            fh.write(f"{name:<20}{amount:>12.2f}\n")
            if i % 100 == 0:
                fh.flush()
''',
"test_CID.py": r'''
import pathlib

import CID_report as report

HERE = pathlib.Path(__file__).parent
ROWS = [(f"cost centre {i}", i * 10.5) for i in range(40000)]
SNAPSHOT = "".join(f"{n:<20}{a:>12.2f}\n" for n, a in ROWS)


def test_render_matches_snapshot(tmp_path):
    out = HERE / "CID_report.actual.txt"  #@F
    out = tmp_path / "CID_report.actual.txt"  #@S
    report.render(ROWS, out)
    try:
        assert out.read_text() == SNAPSHOT
    finally:
        out.unlink()
''',
    }))

T.append(dict(
    topic="sqlite_cache_in_tree", cls="shared-host", test="test_cache_rebuild_counts_rows",
    trigger="shared host: the cache database is a fixed file beside the test module; a second copy of the test running at the same time drops and refills the same table, so the count is off, the table is missing or the database is locked",
    robust="two copies at once (database in tmp_path)",
    conds=["parallel2"],
    files={
"CID_cache.py": r'''
"""Local price cache (sqlite)."""
import sqlite3


def rebuild(db_path, prices):
    con = sqlite3.connect(db_path, timeout=0.5)
    try:
        con.execute("DROP TABLE IF EXISTS prices")
        con.execute("CREATE TABLE prices (sku TEXT, cents INTEGER)")
        con.commit()
        for i in range(0, len(prices), 20):  # one transaction per feed page
            con.executemany("INSERT INTO prices VALUES (?, ?)", prices[i:i + 20])
            con.commit()
        return con.execute("SELECT COUNT(*) FROM prices").fetchone()[0]
    finally:
        con.close()
''',
"test_CID.py": r'''
import pathlib

import CID_cache as cache

PRICES = [(f"SKU{i}", i * 3) for i in range(10000)]


def test_cache_rebuild_counts_rows(tmp_path):
    db = pathlib.Path(__file__).parent / "CID_prices.sqlite3"  #@F
    db = tmp_path / "CID_prices.sqlite3"  #@S
    assert cache.rebuild(db, PRICES) == 10000
''',
    }))

T.append(dict(
    topic="pidfile_single_instance", cls="shared-host", test="test_scheduler_runs_once",
    trigger="shared host: the scheduler's single-instance guard creates the fixed /tmp/CID.pid with O_EXCL for the length of its run (~0.3 s); a second copy of the test running at the same time finds it and raises AlreadyRunning",
    robust="two copies at once (pid file under tmp_path)",
    conds=["parallel2"],
    files={
"CID_sched.py": r'''
"""Cron-like scheduler with a single-instance guard."""
import os
import time


class AlreadyRunning(Exception):
    pass


def run_once(pidfile, jobs):
    try:
        fd = os.open(pidfile, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        raise AlreadyRunning(pidfile) from None
    try:
        os.write(fd, str(os.getpid()).encode())
        done = []
        for job in jobs:
            time.sleep(0.1)  # each job touches the database
            done.append(job)
        return done
    finally:
        os.close(fd)
        os.unlink(pidfile)
''',
"test_CID.py": r'''
import CID_sched as sched


def test_scheduler_runs_once(tmp_path):
    pidfile = "/tmp/CID.pid"  #@F
    pidfile = tmp_path / "CID.pid"  #@S
    assert sched.run_once(pidfile, ["vacuum", "rollup", "mail"]) == ["vacuum", "rollup", "mail"]
''',
    }))
