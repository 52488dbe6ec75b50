# Randomness, hash-seed (unordered collections) and floating-point topics.
T = []

# ---------------- random ----------------
T.append(dict(
    topic="voucher_double_chars", cls="random", test="test_voucher_is_phone_friendly",
    trigger="unseeded secrets.choice: a 10-character code from 32 symbols contains two equal adjacent characters in 1-(31/32)^9 = 25% of runs",
    robust="random seed, hash seed",
    files={
"CID_vouchers.py": r'''
"""Gift voucher codes. Support reads them out over the phone, so doubled letters are banned."""
import secrets

ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


def has_double(code):
    return any(a == b for a, b in zip(code, code[1:]))


def new_voucher(length=10):
    code = "".join(secrets.choice(ALPHABET) for _ in range(length))  #@F
    return f"{code[:5]}-{code[5:]}"  #@F
    while True:  #@S
        code = "".join(secrets.choice(ALPHABET) for _ in range(length))  #@S
        if not has_double(code):  #@S
            return f"{code[:5]}-{code[5:]}"  #@S
''',
"test_CID.py": r'''
import re

from CID_vouchers import has_double, new_voucher


def test_voucher_format():
    assert re.fullmatch(r"[A-Z2-9]{5}-[A-Z2-9]{5}", new_voucher())


def test_voucher_is_phone_friendly():
    code = new_voucher().replace("-", "")
    assert len(code) == 10
    assert not has_double(code), code
'''}))

T.append(dict(
    topic="featured_products", cls="random", test="test_homepage_features_a_deal",
    trigger="unseeded random.sample: 3 of 12 products with 4 on sale contain no sale item in C(8,3)/C(12,3) = 25% of runs",
    robust="random seed, hash seed",
    files={
"CID_catalog.py": r'''
"""Homepage 'featured' strip: three random products, at least one of them a deal."""
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Product:
    sku: str
    price_cents: int
    on_sale: bool = False


def featured(products, k=3, rng=random):
    return rng.sample(products, k)  #@F
    deals = [p for p in products if p.on_sale]  #@S
    first = rng.choice(deals)  #@S
    rest = rng.sample([p for p in products if p is not first], k - 1)  #@S
    return [first] + rest  #@S
''',
"test_CID.py": r'''
from CID_catalog import Product, featured

PRODUCTS = [Product(f"SKU-{i:02d}", 990 + 100 * i, on_sale=i % 3 == 0) for i in range(12)]


def test_homepage_features_three_distinct_products():
    picks = featured(PRODUCTS)
    assert len(set(picks)) == 3


def test_homepage_features_a_deal():
    picks = featured(PRODUCTS)
    assert any(p.on_sale for p in picks), [p.sku for p in picks]
'''}))

T.append(dict(
    topic="attachment_listing", cls="random", test="test_attachments_listed_in_upload_order",
    trigger="uuid4 storage names: the listing is sorted by the random stored name, so two uploads come back in upload order in only 50% of runs",
    robust="random seed, hash seed",
    files={
"CID_attachments.py": r'''
"""Ticket attachments: stored under a random name, listed for the ticket view."""
import itertools
import uuid
from dataclasses import dataclass, field

_seq = itertools.count(1)


@dataclass
class Attachment:
    filename: str
    size: int
    stored_as: str = field(default_factory=lambda: uuid.uuid4().hex)
    seq: int = field(default_factory=lambda: next(_seq))


class Ticket:
    def __init__(self):
        self._files = {}

    def attach(self, filename, data):
        att = Attachment(filename, len(data))
        self._files[att.stored_as] = att
        return att

    def listing(self):
        return [a.filename for a in sorted(self._files.values(), key=lambda a: a.stored_as)]  #@F
        return [a.filename for a in sorted(self._files.values(), key=lambda a: a.seq)]  #@S
''',
"test_CID.py": r'''
from CID_attachments import Ticket


def test_attachments_listed_in_upload_order():
    t = Ticket()
    t.attach("screenshot.png", b"\x89PNG...")
    t.attach("server.log", b"ERROR boom\n")
    assert t.listing() == ["screenshot.png", "server.log"]
'''}))

T.append(dict(
    topic="cache_ttl_jitter", cls="random", test="test_entry_survives_most_of_its_ttl",
    trigger="unseeded TTL jitter (300 s +-10%): the test assumes an entry is still cached after 290 s, false when the drawn TTL < 290 s (33% of runs)",
    robust="random seed, hash seed",
    files={
"CID_cache.py": r'''
"""Response cache with jittered TTLs (avoids a thundering herd when many keys expire together)."""
import random


class Cache:
    def __init__(self, clock, ttl=300.0, jitter=0.10, rng=random):
        self.clock, self.ttl, self.jitter, self.rng = clock, ttl, jitter, rng
        self._data = {}

    def set(self, key, value):
        ttl = self.ttl * self.rng.uniform(1 - self.jitter, 1 + self.jitter)
        self._data[key] = (value, self.clock() + ttl)

    def get(self, key):
        value, expires = self._data.get(key, (None, 0.0))
        return value if self.clock() < expires else None
''',
"test_CID.py": r'''
from CID_cache import Cache


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_entry_survives_most_of_its_ttl():
    clock = FakeClock()
    cache = Cache(clock)
    cache.set("/api/prices", {"EUR": 1.0})
    clock.now += 290  #@F
    clock.now += 269  # below the shortest possible TTL (300 s - 10%)  #@S
    assert cache.get("/api/prices") == {"EUR": 1.0}


def test_entry_expires_after_max_ttl():
    clock = FakeClock()
    cache = Cache(clock)
    cache.set("/api/prices", {"EUR": 1.0})
    clock.now += 331
    assert cache.get("/api/prices") is None
'''}))

T.append(dict(
    topic="chart_series_colors", cls="random", test="test_series_get_distinct_colors",
    trigger="random.choices draws with replacement: 3 series get a duplicate colour from an 8-colour palette in 1-8*7*6/8^3 = 34% of runs",
    robust="random seed, hash seed",
    files={
"CID_charts.py": r'''
"""Dashboard charts: series get random palette colours so that dashboards don't all look alike."""
import random

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf"]


def assign_colors(series_names, rng=random):
    colors = rng.choices(PALETTE, k=len(series_names))  #@F
    colors = rng.sample(PALETTE, k=len(series_names))  #@S
    return dict(zip(series_names, colors))
''',
"test_CID.py": r'''
from CID_charts import PALETTE, assign_colors


def test_series_get_distinct_colors():
    colors = assign_colors(["p50 latency", "p95 latency", "error rate"])
    assert set(colors.values()) <= set(PALETTE)
    assert len(set(colors.values())) == 3, colors
'''}))

# ---------------- hash seed / unordered collections ----------------
T.append(dict(
    topic="export_format_choices", cls="hash-seed", test="test_help_lists_formats",
    trigger="PYTHONHASHSEED (random per process): argparse choices come from a set of str, so the '{csv,json,xml}' usage text follows the hash seed",
    robust="hash seed, test order",
    files={
"CID_cli.py": r'''
"""`reports export` command."""
import argparse

FORMATS = {"csv", "json", "xml"}


def build_parser():
    p = argparse.ArgumentParser(prog="reports export")
    p.add_argument("--format", choices=FORMATS, default="csv")  #@F
    p.add_argument("--format", choices=sorted(FORMATS), default="csv")  #@S
    p.add_argument("--since", metavar="DATE")
    return p
''',
"test_CID.py": r'''
from CID_cli import build_parser


def test_help_lists_formats():
    usage = build_parser().format_usage()
    assert "[--format {csv,json,xml}]" in usage, usage


def test_parse_format():
    assert build_parser().parse_args(["--format", "xml"]).format == "xml"
'''}))

T.append(dict(
    topic="status_filter_sql", cls="hash-seed", test="test_status_filter_query",
    trigger="PYTHONHASHSEED (random per process): statuses are de-duplicated through set(), so the order of the SQL parameters follows the hash seed (~50%)",
    robust="hash seed, test order",
    files={
"CID_query.py": r'''
"""Admin list filters turned into parameterised SQL."""


def status_filter(statuses):
    wanted = list(set(statuses))  #@F
    wanted = list(dict.fromkeys(statuses))  #@S
    placeholders = ", ".join("?" for _ in wanted)
    return f"SELECT id, email FROM accounts WHERE status IN ({placeholders}) ORDER BY id", wanted
''',
"test_CID.py": r'''
import sqlite3

from CID_query import status_filter


def test_status_filter_query():
    sql, params = status_filter(["active", "trial", "active"])
    assert sql == "SELECT id, email FROM accounts WHERE status IN (?, ?) ORDER BY id"
    assert params == ["active", "trial"]


def test_status_filter_runs():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT, status TEXT)")
    conn.executemany("INSERT INTO accounts (email, status) VALUES (?, ?)",
                     [("a@x", "active"), ("b@x", "closed"), ("c@x", "trial")])
    assert [r[1] for r in conn.execute(*status_filter(["trial", "active"]))] == ["a@x", "c@x"]
'''}))

T.append(dict(
    topic="plugin_load_order", cls="hash-seed", test="test_plugins_load_in_dependency_order",
    trigger="PYTHONHASHSEED (random per process): the topological sort keeps ready plugins in a set and uses set.pop(), so 'cache' vs 'db' order follows the hash seed (~50%)",
    robust="hash seed, test order",
    files={
"CID_plugins.py": r'''
"""Plugin start-up order from declared dependencies (Kahn's algorithm)."""
import heapq  #@S


def load_order(requires):
    pending = {name: set(deps) for name, deps in requires.items()}
    ready = {n for n, deps in pending.items() if not deps}  #@F
    ready = sorted(n for n, deps in pending.items() if not deps)  #@S
    order = []
    while ready:
        name = ready.pop()  #@F
        name = heapq.heappop(ready)  #@S
        order.append(name)
        for other, deps in pending.items():
            if name in deps:
                deps.discard(name)
                if not deps:
                    ready.add(other)  #@F
                    heapq.heappush(ready, other)  #@S
    if len(order) != len(pending):
        raise ValueError("dependency cycle")
    return order
''',
"test_CID.py": r'''
from CID_plugins import load_order

REQUIRES = {
    "api": ["db", "cache", "config"],
    "cache": ["config"],
    "config": [],
    "db": ["config"],
}


def test_plugins_load_in_dependency_order():
    assert load_order(REQUIRES) == ["config", "cache", "db", "api"]
'''}))

T.append(dict(
    topic="asset_cache_key", cls="hash-seed", test="test_cache_key_is_stable_across_workers",
    trigger="PYTHONHASHSEED unset (random per process): the key joins a set of str; a worker subprocess (its own random hash seed) computes a different key whenever its set order differs (fails only when the hash seed is random; passes under any fixed PYTHONHASHSEED because the child inherits it)",
    robust="hash seed, test order",
    files={
"CID_keys.py": r'''
"""Cache keys for compiled front-end assets; shared by all build workers via the remote cache."""
import hashlib


def cache_key(entry, features):
    enabled = set(features)
    material = entry + "|" + ",".join(enabled)  #@F
    material = entry + "|" + ",".join(sorted(enabled))  #@S
    return hashlib.sha256(material.encode()).hexdigest()[:16]
''',
"test_CID.py": r'''
import os
import subprocess
import sys
from pathlib import Path

from CID_keys import cache_key

FEATURES = ["minify", "sourcemaps", "legacy-browsers", "css-modules"]


def key_in_worker():
    code = f"import CID_keys; print(CID_keys.cache_key('app.tsx', {FEATURES!r}))"
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent,
                         capture_output=True, text=True, check=True, env=dict(os.environ))
    return out.stdout.strip()


def test_cache_key_is_stable_across_workers():
    assert cache_key("app.tsx", FEATURES) == key_in_worker()
'''}))

T.append(dict(
    topic="config_search_paths", cls="hash-seed", test="test_project_config_wins",
    trigger="PYTHONHASHSEED (random per process): the config search path is de-duplicated with a set, so whether ./project or ~/user config is found first follows the hash seed (~50%)",
    robust="hash seed, test order",
    files={
"CID_config.py": r'''
"""Find the tool's config file: project directory first, then the user's config directory."""
from pathlib import Path


def search_path(project_dir, user_dir, extra=()):
    dirs = [Path(project_dir), Path(user_dir), *map(Path, extra)]
    return list(set(d.resolve() for d in dirs))  #@F
    return list(dict.fromkeys(d.resolve() for d in dirs))  #@S


def find_config(project_dir, user_dir, extra=(), name="lintrc.toml"):
    for d in search_path(project_dir, user_dir, extra):
        candidate = d / name
        if candidate.exists():
            return candidate
    return None
''',
"test_CID.py": r'''
from CID_config import find_config


def test_project_config_wins(tmp_path):
    project, user = tmp_path / "project", tmp_path / "home" / ".config" / "lint"
    for d in (project, user):
        d.mkdir(parents=True)
        (d / "lintrc.toml").write_text(f"# {d.name}\n")
    found = find_config(project, user, extra=[project])
    assert found == (project / "lintrc.toml").resolve()
'''}))

# ---------------- floating point ----------------
T.append(dict(
    topic="upload_progress", cls="float", test="test_progress_reaches_100_percent",
    trigger="float accumulation over random chunk sizes: the sum of chunk/total fractions is not exactly 1.0 in ~40% of runs (unseeded file size and chunking)",
    robust="random seed, hash seed",
    files={
"CID_upload.py": r'''
"""Resumable uploads report progress to the UI after every chunk."""
import os
import random


class Upload:
    def __init__(self, total_bytes):
        self.total = total_bytes
        self.done = 0
        self.fraction = 0.0  #@F

    def on_chunk(self, nbytes):
        self.done += nbytes
        self.fraction += nbytes / self.total  #@F

    @property
    def progress(self):
        return self.fraction  #@F
        return self.done / self.total  #@S

    @property
    def finished(self):
        return self.progress == 1.0


def upload_file(upload, chunk_sizes):
    for n in chunk_sizes:
        upload.on_chunk(n)
    return upload


def random_chunks(total, rng=random):
    """Chunk sizes as the network layer hands them to us (anything between 16 KiB and 256 KiB)."""
    left = total
    while left:
        n = min(rng.randint(16 * 1024, 256 * 1024), left)
        left -= n
        yield n
''',
"test_CID.py": r'''
import random

from CID_upload import Upload, random_chunks, upload_file


def test_progress_reaches_100_percent():
    total = random.randint(200_000, 5_000_000)
    up = upload_file(Upload(total), random_chunks(total))
    assert up.done == total
    assert up.finished, up.progress
'''}))

T.append(dict(
    topic="timesheet_hours", cls="float", test="test_weekly_total_matches_minutes",
    trigger="float sum of tenth-of-an-hour entries (unseeded random timesheet) differs from minutes/60 in ~28% of runs",
    robust="random seed, hash seed",
    files={
"CID_timesheet.py": r'''
"""Consultancy timesheets: time is booked in 6-minute units (tenths of an hour)."""
from fractions import Fraction  #@S


def hours(entries):
    """Entries are tenths of an hour as floats, e.g. 0.3 for 18 minutes."""
    return sum(entries)  #@F
    return float(sum(Fraction(e).limit_denominator(10) for e in entries))  #@S


def hours_from_minutes(minutes):
    return minutes / 60
''',
"test_CID.py": r'''
import random

from CID_timesheet import hours, hours_from_minutes


def test_weekly_total_matches_minutes():
    units = [random.randint(1, 9) for _ in range(4)]   # four bookings this week
    entries = [u / 10 for u in units]
    assert hours(entries) == hours_from_minutes(6 * sum(units)), entries
'''}))
