# Timing / concurrency / async-wait, infrastructure (cwd, env, terminal) and io topics.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

# ----------------------------------------------------------------------------------------- async-wait
T.append(dict(
    topic="price_feed_wait_for", cls="async-wait", test="test_first_tick_after_snapshot",
    trigger="asyncio timeout on a busy machine: the test awaits the first tick with asyncio.wait_for(..., 0.15) while the feed task decodes a 6,000-instrument snapshot in chunks on the same loop (~40 ms idle, ~70 ms with a competing busy process); when the process is starved (load, parallel runs) the timeout fires first",
    robust="machine load (generous timeout)",
    conds=["load"],
    files={
"CID_feed.py": r'''
"""Market-data feed client: on connect the server sends a full snapshot, then incremental ticks."""
import asyncio
import json


def make_snapshot(n):
    return [json.dumps({"sym": f"SYM{i:04d}", "bid": 100 + i / 100, "ask": 100.02 + i / 100,
                        "depth": [[100 + i / 100 - k / 100, 10 * k] for k in range(10)]}) for i in range(n)]


class PriceFeed:
    def __init__(self):
        self.book = {}
        self.ticks = asyncio.Queue()

    async def on_connect(self, snapshot_lines, chunk=100):
        for i in range(0, len(snapshot_lines), chunk):
            for line in snapshot_lines[i:i + chunk]:
                msg = json.loads(line)
                self.book[msg["sym"]] = (msg["bid"], msg["ask"], sum(q for _, q in msg["depth"]))
            await asyncio.sleep(0)  # let other tasks run between chunks
        await self.ticks.put({"sym": "SYM0001", "bid": 100.02, "ask": 100.04})


async def next_tick(feed, timeout):
    return await asyncio.wait_for(feed.ticks.get(), timeout)
''',
"test_CID.py": r'''
import asyncio

import CID_feed as feed_mod

SNAPSHOT = feed_mod.make_snapshot(6000)


def test_first_tick_after_snapshot():
    async def scenario():
        feed = feed_mod.PriceFeed()
        task = asyncio.create_task(feed.on_connect(SNAPSHOT))
        tick = await feed_mod.next_tick(feed, timeout=0.15)  #@F
        tick = await feed_mod.next_tick(feed, timeout=30)  #@S
        await task
        return feed, tick

    feed, tick = asyncio.run(scenario())
    assert tick["sym"] == "SYM0001"
    assert len(feed.book) == 6000
''',
    }))

T.append(dict(
    topic="spellcheck_dictionary_warmup", cls="async-wait", test="test_typos_are_flagged",
    trigger="Event.wait(timeout) whose result is ignored: the test waits at most 0.05 s for the background dictionary load (~100k words, tens of ms idle) and then checks; on a busy machine the dictionary is still empty and every word is flagged",
    robust="machine load (wait for the event without a short timeout, assert it was set)",
    conds=["load"],
    files={
"CID_spell.py": r'''
"""Spell checker for the comment editor; the dictionary is loaded in the background at start-up."""
import itertools
import re
import threading

COMMON = ["the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "order", "shipped", "today"]


def _dictionary_words():
    # stands in for reading the 80k-word hunspell file
    syllables = ["ka", "ro", "mi", "te", "lu", "sa", "pe", "do", "ni", "ve", "gu", "zo", "ba", "fi", "ho"]
    for parts in itertools.product(syllables, repeat=4):
        yield "".join(parts)
    yield from COMMON


class SpellChecker:
    def __init__(self):
        self.words = frozenset()
        self.ready = threading.Event()
        threading.Thread(target=self._load, daemon=True).start()

    def _load(self):
        words = set()
        for _ in range(2):  # two dictionaries: en_US base and the product glossary
            for w in _dictionary_words():
                words.add(w.strip().lower())
        self.words = frozenset(words)
        self.ready.set()

    def check(self, text):
        return [w for w in re.findall(r"[a-z]+", text.lower()) if w not in self.words]
''',
"test_CID.py": r'''
import CID_spell as spell


def test_typos_are_flagged():
    checker = spell.SpellChecker()
    checker.ready.wait(0.05)  #@F
    assert checker.ready.wait(30), "dictionary did not load"  #@S
    assert checker.check("Teh quick brown fox jumps ovr the lazy dog") == ["teh", "ovr"]
''',
    }))

T.append(dict(
    topic="map_tile_prerender", cls="async-wait", test="test_all_tiles_prerendered",
    trigger="concurrent.futures.wait(timeout=0.12) around 24 CPU-bound 96x96 tile renders (tens of ms idle in a thread pool that shares the GIL); on a busy machine some futures are still pending and their tiles are dropped",
    robust="machine load (wait for all futures)",
    conds=["load"],
    files={
"CID_tiles.py": r'''
"""Map tiles for the store locator are pre-rendered after every data import."""
import zlib
from concurrent.futures import ThreadPoolExecutor, wait


def render_tile(z, x, y, size=96):
    rows = []
    for py in range(size):
        row = bytearray()
        for px in range(size):
            v = ((x * size + px) * 31 + (y * size + py) * 17 + z * 7) % 251
            row += bytes((v, (v * 3) % 256, (v * 7) % 256))
        rows.append(b"\x00" + bytes(row))
    return zlib.compress(b"".join(rows), 6)


def prerender(tiles, workers=4, timeout=0.12):
    with ThreadPoolExecutor(workers) as pool:
        futures = {pool.submit(render_tile, *t): t for t in tiles}
        done, pending = wait(futures, timeout=timeout)
        for f in pending:
            f.cancel()  # the import job must not hang on a slow render
        return {futures[f]: f.result() for f in done if not f.cancelled()}
''',
"test_CID.py": r'''
import CID_tiles as tiles

TILES = [(12, x, y) for x in range(2150, 2156) for y in range(1400, 1404)]


def test_all_tiles_prerendered():
    out = tiles.prerender(TILES)  #@F
    out = tiles.prerender(TILES, timeout=None)  #@S
    assert sorted(out) == sorted(TILES)
    assert all(len(png) > 100 for png in out.values())
''',
    }))

T.append(dict(
    topic="log_shipper_join_timeout", cls="async-wait", test="test_stop_flushes_everything",
    trigger="Thread.join(timeout=0.06) in stop(): the shipper thread still has to format, redact and write the backlog of 6,000 queued lines (~30 ms idle, ~60-80 ms with a competing busy process); on a busy machine stop() returns early and the file misses lines",
    robust="machine load (join without timeout)",
    conds=["load"],
    files={
"CID_shipper.py": r'''
"""Log shipper: lines are queued by the app and written by a background thread (redacting e-mail addresses)."""
import json
import queue
import re
import threading

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")


class LogShipper:
    def __init__(self, path):
        self.path = path
        self.q = queue.Queue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def ship(self, level, msg, **fields):
        self.q.put((level, msg, fields))

    def _run(self):
        with open(self.path, "a", encoding="utf-8") as fh:
            while True:
                item = self.q.get()
                if item is None:
                    break
                level, msg, fields = item
                fh.write(json.dumps({"level": level, "msg": EMAIL.sub("<email>", msg), **fields}) + "\n")

    def stop(self):
        self.q.put(None)
        self.thread.join(timeout=0.06)  # do not block shutdown  #@F
        self.thread.join()  #@S
''',
"test_CID.py": r'''
import CID_shipper as shipper


def test_stop_flushes_everything(tmp_path):
    path = tmp_path / "app.log"
    s = shipper.LogShipper(path)
    for i in range(6000):
        s.ship("info", f"order {i} confirmed for customer{i}@example.com", order=i)
    s.stop()
    lines = path.read_text().splitlines()
    assert len(lines) == 6000
    assert "<email>" in lines[-1]
''',
    }))

# ----------------------------------------------------------------------------------------- concurrency
T.append(dict(
    topic="upload_shard_dir_race", cls="concurrency", test="test_parallel_uploads_are_stored",
    trigger="check-then-act race: 8 upload threads create the shard directory (first 3 hex digits of the hash, 4,096 shards for 1,500 blobs) with 'if not isdir: mkdir'; two threads can both see it missing and the second mkdir raises FileExistsError; needs the threads' syscalls to overlap on two cores (failed in plain runs, not when pinned to one core under load)",
    robust="thread scheduling (os.makedirs(exist_ok=True))",
    conds=["load"],
    files={
"CID_store.py": r'''
"""Upload storage: files are sharded into sub-directories by the first hex digits of their content hash."""
import hashlib
import logging
import os

log = logging.getLogger("uploads")


def store(root, data):
    digest = hashlib.sha256(data).hexdigest()
    shard = os.path.join(root, digest[:3])
    if not os.path.isdir(shard):  #@F
        log.debug("creating shard %s", shard)  #@F
        os.mkdir(shard)  #@F
    os.makedirs(shard, exist_ok=True)  #@S
    path = os.path.join(shard, digest)
    with open(path, "wb") as fh:
        fh.write(data)
    return path
''',
"test_CID.py": r'''
from concurrent.futures import ThreadPoolExecutor

import CID_store as store


def test_parallel_uploads_are_stored(tmp_path):
    blobs = [f"invoice-{i}.pdf".encode() * 50 for i in range(1500)]
    with ThreadPoolExecutor(8) as pool:
        paths = list(pool.map(lambda b: store.store(str(tmp_path), b), blobs))
    assert len(set(paths)) == 1500
''',
    }))

T.append(dict(
    topic="pricing_engine_lazy_singleton", cls="concurrency", test="test_engine_loaded_once_under_concurrency",
    trigger="lazy initialisation without a lock: the first requests arrive on 8 threads at once (barrier); when the GIL switches away while the first thread compiles the 6,000 rules (a few ms), another thread also sees _engine is None and builds its own engine",
    robust="thread scheduling (double-checked locking)",
    conds=["load"],
    files={
"CID_pricing.py": r'''
"""Pricing engine: the discount rules are compiled on first use and shared by all request threads."""
import re
import threading

RULES = [f"sku:PRD-{i:04d} qty>={i % 7 + 1} -> {i % 30}%" for i in range(6000)]
RULE = re.compile(r"sku:(\S+) qty>=(\d+) -> (\d+)%")

_engine = None
_lock = threading.Lock()


class PricingEngine:
    loads = 0

    def __init__(self, rules):
        PricingEngine.loads += 1
        self.rules = {}
        for text in rules:
            sku, qty, pct = RULE.match(text).groups()
            self.rules[sku] = (int(qty), int(pct))

    def price(self, sku, unit_cents, qty):
        min_qty, pct = self.rules.get(sku, (0, 0))
        total = unit_cents * qty
        return total - total * pct // 100 if qty >= min_qty else total


def get_engine():
    global _engine
    if _engine is None:
        with _lock:  #@S
            if _engine is None:  #@S
                _engine = PricingEngine(RULES)  #@S
        _engine = PricingEngine(RULES)  #@F
    return _engine


def quote(sku, unit_cents, qty):
    return get_engine().price(sku, unit_cents, qty)
''',
"test_CID.py": r'''
import threading

import CID_pricing as pricing


def test_engine_loaded_once_under_concurrency():
    start = threading.Barrier(8)
    results = []

    def request(i):
        start.wait()
        results.append(pricing.quote(f"PRD-{i:04d}", 1000, 10))

    threads = [threading.Thread(target=request, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 8
    assert pricing.PricingEngine.loads == 1
''',
    }))

# ----------------------------------------------------------------------------------------- infrastructure
T.append(dict(
    topic="i18n_catalog_localedir", cls="infrastructure", test="test_german_shipping_mail",
    trigger="working directory: the message catalogues are opened from the relative directory 'CID_locale'; started from another directory (cwd-parent) the catalogue is missing, the fallback returns the English text",
    robust="working directory (path relative to the module)",
    files={
"CID_locale/de.json": r'''
{"Your order has shipped": "Ihre Bestellung wurde versandt",
 "Track your parcel": "Sendung verfolgen"}
''',
"CID_i18n.py": r'''
"""Tiny gettext-like translator: one JSON catalogue per language; unknown messages fall back to English."""
import json
import os

LOCALE_DIR = "CID_locale"  #@F
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "CID_locale")  #@S


def translator(lang):
    try:
        with open(os.path.join(LOCALE_DIR, f"{lang}.json"), encoding="utf-8") as fh:
            catalog = json.load(fh)
    except FileNotFoundError:
        catalog = {}  # like gettext.translation(..., fallback=True)
    return lambda msg: catalog.get(msg, msg)
''',
"test_CID.py": r'''
import CID_i18n as i18n


def test_german_shipping_mail():
    _ = i18n.translator("de")
    assert _("Your order has shipped") == "Ihre Bestellung wurde versandt"
    assert _("Unknown message") == "Unknown message"
''',
    }))

T.append(dict(
    topic="csv_import_cli_script", cls="infrastructure", test="test_dry_run_reports_rows",
    trigger="working directory: the test runs the import script as [sys.executable, 'CID_import.py', ...] with a path relative to the cwd; started from another directory (cwd-parent) python cannot open the script",
    robust="working directory (script path relative to the test file)",
    files={
"CID_import.py": r'''
"""Command-line product import: python CID_import.py [--dry-run] FILE.csv"""
import argparse
import csv
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(prog="import")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("file")
    args = ap.parse_args(argv)
    with open(args.file, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    bad = [r["sku"] for r in rows if not r["price"]]
    print(f"{len(rows)} rows, {len(bad)} without price" + (" (dry run)" if args.dry_run else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
''',
"test_CID.py": r'''
import pathlib
import subprocess
import sys

SCRIPT = "CID_import.py"  #@F
SCRIPT = str(pathlib.Path(__file__).with_name("CID_import.py"))  #@S


def test_dry_run_reports_rows(tmp_path):
    data = tmp_path / "products.csv"
    data.write_text("sku,price\nPEN-BLK,0.89\nPAD-A4,\nINK-CYN,17.90\n")
    proc = subprocess.run([sys.executable, SCRIPT, "--dry-run", str(data)], capture_output=True, text=True)
    assert proc.stdout.strip() == "3 rows, 1 without price (dry run)", proc.stderr
    assert proc.returncode == 1
''',
    }))

T.append(dict(
    topic="build_version_suffix", cls="infrastructure", test="test_about_dialog_version",
    trigger="environment: version() appends '+ci.<BUILD_NUMBER>' when CI is set; passes on a developer machine, fails under CI=true (env-ci)",
    robust="environment (CI removed with monkeypatch in the test)",
    files={
"CID_version.py": r'''
"""Version string shown in the about dialog and sent in the User-Agent."""
import os

BASE = "1.4.0"


def version():
    if os.environ.get("CI"):
        return f"{BASE}+ci.{os.environ.get('BUILD_NUMBER', '0')}"
    return f"{BASE}+dev"


def about_text():
    return f"Storefront Admin {version()}"
''',
"test_CID.py": r'''
import CID_version as v


def test_about_dialog_version(monkeypatch):
    monkeypatch.delenv("CI", raising=False)  # the CI build stamps its own suffix  #@S
    assert v.about_text() == "Storefront Admin 1.4.0+dev"


def test_ci_build_suffix(monkeypatch):
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("BUILD_NUMBER", "812")
    assert v.version() == "1.4.0+ci.812"
''',
    }))

T.append(dict(
    topic="admin_cli_help_golden", cls="infrastructure", test="test_help_matches_golden_file",
    trigger="terminal width: argparse wraps --help at $COLUMNS - 2; the golden file was recorded at the default 80 columns, so COLUMNS=132 (columns condition, a wide CI log terminal) changes the wrapping",
    robust="terminal width (COLUMNS pinned in the test)",
    files={
"CID_admin.py": r'''
"""storectl: administration commands for the storefront."""
import argparse


def build_parser():
    p = argparse.ArgumentParser(prog="storectl", description="Administration commands for the storefront "
                                "(catalogue, prices, customers). Most commands accept --dry-run.")
    p.add_argument("--dry-run", action="store_true", help="show what would change without writing anything "
                   "to the database or the search index")
    p.add_argument("--batch-size", type=int, default=500, help="number of rows written per transaction when "
                   "importing large catalogues")
    p.add_argument("--region", choices=["eu", "us", "apac"], default="eu", help="data-centre region whose "
                   "database is used")
    return p
''',
"CID_help.txt": r'''
usage: storectl [-h] [--dry-run] [--batch-size BATCH_SIZE]
                [--region {eu,us,apac}]

Administration commands for the storefront (catalogue, prices, customers).
Most commands accept --dry-run.

options:
  -h, --help            show this help message and exit
  --dry-run             show what would change without writing anything to the
                        database or the search index
  --batch-size BATCH_SIZE
                        number of rows written per transaction when importing
                        large catalogues
  --region {eu,us,apac}
                        data-centre region whose database is used
''',
"test_CID.py": r'''
import pathlib

import CID_admin as admin

GOLDEN = pathlib.Path(__file__).with_name("CID_help.txt")


def test_help_matches_golden_file(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps at the terminal width  #@S
    assert admin.build_parser().format_help() == GOLDEN.read_text()
''',
    }))

# ----------------------------------------------------------------------------------------- io
T.append(dict(
    topic="job_status_file_rewrite", cls="io", test="test_status_always_readable_while_running",
    trigger="non-atomic file rewrite: the worker thread rewrites status.json in place (open 'w' truncates, the buffered JSON is written at close) 5 times while the test polls it every 20 ms; a read that lands between truncate and write sees an empty file (JSONDecodeError); the GIL hand-over at the worker's open() makes the collision fairly likely",
    robust="thread scheduling (write to a temp file + os.replace)",
    conds=["load"],
    files={
"CID_jobs.py": r'''
"""Background export job that publishes its progress in a small JSON status file (read by the web UI)."""
import json
import os
import threading


def write_status(path, status):
    with open(path, "w", encoding="utf-8") as fh:  #@F
        json.dump(status, fh)  #@F
    tmp = f"{path}.tmp"  #@S
    with open(tmp, "w", encoding="utf-8") as fh:  #@S
        json.dump(status, fh)  #@S
    os.replace(tmp, path)  #@S


def read_status(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def run_export(path, rows):
    lines = []
    for i in range(rows):
        lines.append(f"{i};SKU-{i:06d};{i * 0.37:.2f};EUR\n")  # stands in for formatting one CSV row
        if i % 25000 == 0:
            write_status(path, {"state": "running", "rows": i, "total": rows})
    write_status(path, {"state": "done", "rows": rows, "total": rows})
    return lines


def start_export(path, rows):
    write_status(path, {"state": "queued", "rows": 0, "total": rows})
    t = threading.Thread(target=run_export, args=(path, rows))
    t.start()
    return t
''',
"test_CID.py": r'''
import time

import CID_jobs as jobs


def test_status_always_readable_while_running(tmp_path):
    path = tmp_path / "status.json"
    worker = jobs.start_export(path, 100000)
    seen = []
    while worker.is_alive():
        seen.append(jobs.read_status(path)["rows"])
        time.sleep(0.02)  # the UI polls every 20 ms
    worker.join()
    assert jobs.read_status(path)["state"] == "done"
    assert seen == sorted(seen)
''',
    }))

T.append(dict(
    topic="unix_socket_fixed_path", cls="io", test="test_agent_answers_status",
    trigger="shared fixed path: the test agent binds its Unix socket at /tmp/CID-agent.sock (unlinking any old one first); two runs at the same time (parallel2) replace or remove each other's socket, so a client talks to the other process's agent or finds no socket",
    robust="parallel runs (socket in tmp_path)",
    conds=["parallel2"],
    files={
"CID_agent.py": r'''
"""Local agent: answers 'status' requests from the CLI over a Unix socket."""
import json
import os
import socket
import threading


class Agent:
    def __init__(self, path):
        self.path = path
        if os.path.exists(path):
            os.unlink(path)  # stale socket from a crashed agent
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.bind(path)
        self.sock.listen()
        self.jobs = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.recv(1024)
                self.jobs += 1
                conn.sendall(json.dumps({"pid": os.getpid(), "jobs": self.jobs}).encode())

    def close(self):
        self.sock.close()
        if os.path.exists(self.path):
            os.unlink(self.path)


def request_status(path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as c:
        c.settimeout(5)
        c.connect(path)
        c.sendall(b"status")
        return json.loads(c.recv(1024))
''',
"test_CID.py": r'''
import os
import time

import pytest

import CID_agent as agent_mod


@pytest.fixture
def agent(tmp_path):
    a = agent_mod.Agent("/tmp/CID-agent.sock")  #@F
    a = agent_mod.Agent(str(tmp_path / "agent.sock"))  #@S
    yield a
    a.close()


def test_agent_answers_status(agent):
    for expected_jobs in range(1, 11):
        status = agent_mod.request_status(agent.path)
        assert status == {"pid": os.getpid(), "jobs": expected_jobs}
        time.sleep(0.003)  # the CLI polls the agent while a job runs
''',
    }))
