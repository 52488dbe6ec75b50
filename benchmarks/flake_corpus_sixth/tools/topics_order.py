# Order-dependency topics (victims, brittles, self-polluters) and resource leaks that act through order.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

# ----------------------------------------------------------------------------------------- victims
T.append(dict(
    topic="webhook_proxy_env", cls="order", test="test_webhook_goes_direct",
    trigger="victim: runs after test_corporate_proxy_is_used (reversed order, shuffled, or module run twice); the polluter sets os.environ['HTTPS_PROXY'] directly and never removes it, so the webhook session config picks up the proxy",
    robust="test order, repetition",
    files={
"CID_client.py": r'''
"""Outgoing webhook delivery: session settings honour the standard proxy variables."""
import os


def session_config(url):
    proxy = os.environ.get("HTTPS_PROXY") or os.environ.get("https_proxy")
    return {"url": url, "proxy": proxy, "verify": True, "timeout": 10}
''',
"test_CID.py": r'''
import os

import CID_client as client


def test_webhook_goes_direct():
    cfg = client.session_config("https://hooks.example.com/orders")
    assert cfg["proxy"] is None
    assert cfg["verify"] is True


def test_corporate_proxy_is_used(monkeypatch):
    os.environ["HTTPS_PROXY"] = "http://proxy.corp.example:3128"  #@F
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.corp.example:3128")  #@S
    cfg = client.session_config("https://hooks.example.com/orders")
    assert cfg["proxy"] == "http://proxy.corp.example:3128"
''',
    }))

T.append(dict(
    topic="fx_decimal_context", cls="order", test="test_vat_is_rounded_to_cents",
    trigger="victim: runs after test_rate_display_has_four_significant_digits (reversed, shuffled, twice); the polluter sets decimal.getcontext().prec = 4 on the thread's global context and never restores it, so the VAT quantize raises InvalidOperation",
    robust="test order, repetition",
    files={
"CID_fx.py": r'''
"""Currency helpers for the checkout: VAT in cents, display rates with few digits."""
from decimal import Decimal, localcontext


def vat(net, rate="0.19"):
    return (Decimal(net) * Decimal(rate)).quantize(Decimal("0.01"))


def display_rate(base, quote):
    return Decimal(quote) / Decimal(base)
''',
"test_CID.py": r'''
from decimal import Decimal, getcontext, localcontext

import CID_fx as fx


def test_vat_is_rounded_to_cents():
    assert fx.vat("12345.67") == Decimal("2345.68")
    assert fx.vat("0.99") == Decimal("0.19")


def test_rate_display_has_four_significant_digits():
    getcontext().prec = 4  #@F
    assert fx.display_rate("1", "1.234567") == Decimal("1.235")  #@F
    with localcontext() as ctx:  #@S
        ctx.prec = 4  #@S
        assert fx.display_rate("1", "1.234567") == Decimal("1.235")  #@S
''',
    }))

T.append(dict(
    topic="session_pickle_reducer", cls="order", test="test_session_round_trips",
    trigger="victim: runs after test_cache_entry_is_compact (reversed, shuffled, twice); the compact-cache helper registers a reducer with copyreg.pickle, i.e. in the process-global dispatch table, so every later pickle of a Session drops the cart",
    robust="test order, repetition",
    files={
"CID_session.py": r'''
"""Web sessions; the shared cache stores only a compact form (user id), the job queue pickles full sessions."""
import copyreg
import io
import pickle


class Session:
    def __init__(self, user, cart=None):
        self.user = user
        self.cart = list(cart or [])

    def __eq__(self, other):
        return isinstance(other, Session) and (self.user, self.cart) == (other.user, other.cart)


def _compact(session):
    return Session, (session.user,)


def cache_dumps(session):
    copyreg.pickle(Session, _compact)  #@F
    return pickle.dumps(session)  #@F
    buf = io.BytesIO()  #@S
    p = pickle.Pickler(buf)  #@S
    p.dispatch_table = copyreg.dispatch_table.copy()  #@S
    p.dispatch_table[Session] = _compact  #@S
    p.dump(session)  #@S
    return buf.getvalue()  #@S
''',
"test_CID.py": r'''
import pickle

import CID_session as session_mod


def test_session_round_trips():
    s = session_mod.Session("u42", cart=["sku-1", "sku-7"])
    assert pickle.loads(pickle.dumps(s)) == s


def test_cache_entry_is_compact():
    s = session_mod.Session("u42", cart=["sku-%d" % i for i in range(50)])
    blob = session_mod.cache_dumps(s)
    assert pickle.loads(blob).cart == []
    assert len(blob) < 200
''',
    }))

T.append(dict(
    topic="geoip_module_stub", cls="order", test="test_shipping_country_from_ip",
    trigger="victim: runs after test_checkout_with_geo_service_down (reversed, shuffled, twice); the polluter puts a stub into sys.modules['CID_geo'] and never removes it; the lazy import in checkout then returns the stub",
    robust="test order, repetition",
    files={
"CID_geo.py": r'''
"""Tiny offline GeoIP table (the real one is a 60 MB database)."""
PREFIXES = {"81.2.": "GB", "85.214.": "DE", "89.160.": "SE", "2.16.": "FR"}


def lookup(ip):
    for prefix, country in PREFIXES.items():
        if ip.startswith(prefix):
            return country
    return "ZZ"
''',
"CID_checkout.py": r'''
def shipping_country(ip, default="US"):
    import CID_geo  # lazy: the GeoIP database is only loaded when a checkout needs it
    country = CID_geo.lookup(ip)
    return default if country == "ZZ" else country
''',
"test_CID.py": r'''
import sys
import types

import CID_checkout as checkout


def test_shipping_country_from_ip():
    assert checkout.shipping_country("81.2.69.160") == "GB"
    assert checkout.shipping_country("85.214.132.117") == "DE"


def test_checkout_with_geo_service_down(monkeypatch):
    stub = types.SimpleNamespace(lookup=lambda ip: "ZZ")
    sys.modules["CID_geo"] = stub  #@F
    monkeypatch.setitem(sys.modules, "CID_geo", stub)  #@S
    assert checkout.shipping_country("81.2.69.160") == "US"
''',
    }))

T.append(dict(
    topic="pricing_tier_cache", cls="order", test="test_free_plan_has_three_seats",
    trigger="victim: runs after test_enterprise_plan_limits (reversed, shuffled, twice); the polluter clears the lru_cache before its call but not after, so the cached enterprise limits outlive monkeypatch's env restore",
    robust="test order, repetition",
    files={
"CID_billing.py": r'''
"""Plan limits, read once from the environment (deployment sets BILLING_TIER)."""
import functools
import os

SEATS = {"free": 3, "team": 25, "enterprise": 1000}


@functools.lru_cache(maxsize=None)
def plan_limits():
    tier = os.environ.get("BILLING_TIER", "free")
    return {"tier": tier, "seats": SEATS[tier]}
''',
"test_CID.py": r'''
import pytest

import CID_billing as billing


@pytest.fixture
def fresh_limits():
    billing.plan_limits.cache_clear()
    yield
    billing.plan_limits.cache_clear()  #@S


def test_free_plan_has_three_seats(monkeypatch):
    monkeypatch.delenv("BILLING_TIER", raising=False)
    assert billing.plan_limits() == {"tier": "free", "seats": 3}


def test_enterprise_plan_limits(monkeypatch, fresh_limits):
    monkeypatch.setenv("BILLING_TIER", "enterprise")
    assert billing.plan_limits()["seats"] == 1000
''',
    }))

T.append(dict(
    topic="api_decimal_encoder", cls="order", test="test_prices_are_json_numbers",
    trigger="victim: runs after test_legacy_clients_get_string_prices (reversed, shuffled, twice); the polluter registers Decimal->str in the module-level ENCODERS registry and never unregisters it",
    robust="test order, repetition",
    files={
"CID_api.py": r'''
"""JSON rendering for the public API; integrations may register encoders for their own types."""
import json
from decimal import Decimal

ENCODERS = {}


def register_encoder(tp, fn):
    ENCODERS[tp] = fn


def _default(obj):
    for tp, fn in ENCODERS.items():
        if isinstance(obj, tp):
            return fn(obj)
    if isinstance(obj, Decimal):
        return float(obj)
    raise TypeError(f"cannot encode {type(obj).__name__}")


def dumps(obj):
    return json.dumps(obj, default=_default, sort_keys=True)
''',
"test_CID.py": r'''
from decimal import Decimal

import CID_api as api


def test_prices_are_json_numbers():
    assert api.dumps({"sku": "A-1", "price": Decimal("9.50")}) == '{"price": 9.5, "sku": "A-1"}'


def test_legacy_clients_get_string_prices(monkeypatch):
    api.register_encoder(Decimal, str)  #@F
    monkeypatch.setitem(api.ENCODERS, Decimal, str)  #@S
    assert api.dumps({"price": Decimal("9.50")}) == '{"price": "9.50"}'
''',
    }))

T.append(dict(
    topic="csv_field_limit_import", cls="order", test="test_long_product_description_imports",
    trigger="victim: runs after test_untrusted_upload_rejects_huge_fields (reversed, shuffled, twice); parse_untrusted() lowers the process-global csv.field_size_limit and never restores it, so a 5,000-character description raises _csv.Error",
    robust="test order, repetition",
    files={
"CID_importer.py": r'''
"""Product CSV import; uploads from the public form are parsed with a small field limit."""
import csv
import io


def parse(text):
    return list(csv.DictReader(io.StringIO(text)))


def parse_untrusted(text, limit=1024):
    csv.field_size_limit(limit)  #@F
    return parse(text)  #@F
    old = csv.field_size_limit(limit)  #@S
    try:  #@S
        return parse(text)  #@S
    finally:  #@S
        csv.field_size_limit(old)  #@S
''',
"test_CID.py": r'''
import csv

import pytest

import CID_importer as importer


def test_long_product_description_imports():
    text = "sku,description\nA-1," + "x" * 5000 + "\n"
    rows = importer.parse(text)
    assert len(rows[0]["description"]) == 5000


def test_untrusted_upload_rejects_huge_fields():
    text = "sku,description\nA-1," + "y" * 4000 + "\n"
    with pytest.raises(csv.Error):
        importer.parse_untrusted(text)
''',
    }))

T.append(dict(
    topic="bignum_digit_limit", cls="order", test="test_factorial_digit_count",
    trigger="victim: runs after test_hardening_rejects_huge_numbers (reversed, shuffled, twice); harden() lowers sys.set_int_max_str_digits(640) process-wide and the test never restores it, so str() of a 1,135-digit int raises ValueError",
    robust="test order, repetition",
    files={
"CID_mathsvc.py": r'''
"""Combinatorics micro-service; harden() applies the input limits used in production."""
import math
import sys


def digit_count_of_factorial(n):
    return len(str(math.factorial(n)))


def harden(max_digits=640):
    sys.set_int_max_str_digits(max_digits)


def parse_amount(text):
    return int(text)
''',
"test_CID.py": r'''
import sys

import pytest

import CID_mathsvc as svc


def test_factorial_digit_count():
    assert svc.digit_count_of_factorial(500) == 1135


def test_hardening_rejects_huge_numbers():
    svc.harden()  #@F
    with pytest.raises(ValueError):  #@F
        svc.parse_amount("9" * 1000)  #@F
    old = sys.get_int_max_str_digits()  #@S
    svc.harden()  #@S
    try:  #@S
        with pytest.raises(ValueError):  #@S
            svc.parse_amount("9" * 1000)  #@S
    finally:  #@S
        sys.set_int_max_str_digits(old)  #@S
''',
    }))

# ----------------------------------------------------------------------------------------- brittles
T.append(dict(
    topic="tariff_table_chdir", cls="order", test="test_zone_rate_lookup",
    trigger="brittle: passes only after test_export_runs_in_data_dir did os.chdir() into the data directory (never undone); alone or in reversed order the relative open of the tariff table raises FileNotFoundError",
    robust="test order, running alone, working directory",
    files={
"CID_data/CID_tariffs.csv": "zone,max_kg,price\nDE,2,4.99\nDE,10,7.49\nAT,2,6.99\nAT,10,9.99\n",
"CID_tariffs.py": r'''
"""Parcel tariffs; the export tool is run from the data directory by the ops cron job."""
import csv
import pathlib

DATA_DIR = pathlib.Path(__file__).resolve().parent / "CID_data"


def load():
    with open("CID_tariffs.csv", newline="") as fh:  #@F
    with open(DATA_DIR / "CID_tariffs.csv", newline="") as fh:  #@S
        return [dict(r, max_kg=float(r["max_kg"]), price=float(r["price"])) for r in csv.DictReader(fh)]


def rate(zone, kg):
    for row in load():
        if row["zone"] == zone and kg <= row["max_kg"]:
            return row["price"]
    raise LookupError(zone)


def export_summary():
    return ";".join(f"{r['zone']}:{r['price']}" for r in load())
''',
"test_CID.py": r'''
import os

import CID_tariffs as tariffs


def test_export_runs_in_data_dir(monkeypatch):
    os.chdir(tariffs.DATA_DIR)  #@F
    monkeypatch.chdir(tariffs.DATA_DIR)  #@S
    assert tariffs.export_summary().startswith("DE:4.99;")


def test_zone_rate_lookup():
    assert tariffs.rate("DE", 5) == 7.49
    assert tariffs.rate("AT", 1.5) == 6.99
''',
    }))

T.append(dict(
    topic="survey_sample_seed", cls="order", test="test_panel_snapshot",
    trigger="brittle: the snapshot is only reproduced after test_panel_is_reproducible_with_seed seeded the global random module; alone or in reversed order the panel is unseeded and (almost always) differs",
    robust="test order, running alone",
    files={
"CID_survey.py": r'''
"""Pick a random panel of respondents for the follow-up interview."""
import random


def pick_panel(respondents, k=3, rng=random):
    return rng.sample(respondents, k)
''',
"test_CID.py": r'''
import random

import CID_survey as survey

RESPONDENTS = [f"r{i:02d}" for i in range(20)]


def test_panel_is_reproducible_with_seed():
    random.seed(2024)
    first = survey.pick_panel(RESPONDENTS)
    random.seed(2024)
    assert survey.pick_panel(RESPONDENTS) == first


def test_panel_snapshot():
    assert survey.pick_panel(RESPONDENTS) == ["r06", "r13", "r08"]  #@F
    assert survey.pick_panel(RESPONDENTS, rng=random.Random(2024)) == ["r15", "r05", "r09"]  #@S
''',
    }))

T.append(dict(
    topic="etl_progress_loglevel", cls="order", test="test_load_reports_row_count",
    trigger="brittle: the INFO progress line reaches caplog only after test_cli_configures_logging set the root logger to INFO (never reset); alone or reversed the root logger is at WARNING and caplog sees nothing",
    robust="test order, running alone",
    files={
"CID_etl.py": r'''
"""Nightly ETL job; the CLI entry point configures logging for the whole process."""
import logging

log = logging.getLogger("CID.etl")


def configure_logging(verbose=False):
    logging.getLogger().setLevel(logging.DEBUG if verbose else logging.INFO)


def load_rows(rows):
    log.info("loaded %d rows", len(rows))
    return len(rows)
''',
"test_CID.py": r'''
import logging

import CID_etl as etl


def test_cli_configures_logging():
    etl.configure_logging()
    assert logging.getLogger().level == logging.INFO


def test_load_reports_row_count(caplog):
    caplog.set_level(logging.INFO, logger="CID.etl")  #@S
    assert etl.load_rows([{"id": 1}, {"id": 2}, {"id": 3}]) == 3
    assert "loaded 3 rows" in caplog.text
''',
    }))

# ----------------------------------------------------------------------------------------- self-polluters
T.append(dict(
    topic="packing_slip_notes", cls="order", test="test_gift_note_printed",
    trigger="self-polluter: fails when the module runs twice in one process (or the note test otherwise runs again); PackingSlip uses a mutable default argument notes=[], so the second slip still carries the first slip's note",
    robust="test order, repetition",
    files={
"CID_slips.py": r'''
"""Packing slips printed at the warehouse."""


class PackingSlip:
    def __init__(self, order_id, notes=[]):  #@F
    def __init__(self, order_id, notes=None):  #@S
        self.order_id = order_id
        self.notes = notes  #@F
        self.notes = list(notes or [])  #@S

    def add_note(self, text):
        self.notes.append(text)

    def render(self):
        lines = [f"Order #{self.order_id}"]
        lines += [f"Note: {n}" for n in self.notes]
        return "\n".join(lines)
''',
"test_CID.py": r'''
import CID_slips as slips


def test_explicit_notes_are_printed():
    assert slips.PackingSlip(7, notes=["fragile"]).render() == "Order #7\nNote: fragile"


def test_gift_note_printed():
    slip = slips.PackingSlip(1001)
    slip.add_note("gift wrap, no invoice")
    assert slip.render() == "Order #1001\nNote: gift wrap, no invoice"
''',
    }))

T.append(dict(
    topic="credit_note_numbers", cls="order", test="test_first_credit_note_number",
    trigger="self-polluter: fails when the module runs twice in one process; credit note numbers come from a module-global itertools.count, so the second run issues CN-00002",
    robust="test order, repetition",
    files={
"CID_credit.py": r'''
"""Credit notes (refund documents) with gap-free numbers."""
import itertools

_numbers = itertools.count(1)  #@F


class CreditNoteBook:
    def __init__(self):
        self.issued = []
        self._numbers = itertools.count(1)  #@S

    def issue(self, invoice, amount_cents):
        number = f"CN-{next(_numbers):05d}"  #@F
        number = f"CN-{next(self._numbers):05d}"  #@S
        self.issued.append((number, invoice, amount_cents))
        return number


def format_amount(cents):
    return f"-{cents // 100}.{cents % 100:02d} EUR"
''',
"test_CID.py": r'''
import CID_credit as credit


def test_amount_is_negative():
    assert credit.format_amount(1999) == "-19.99 EUR"


def test_first_credit_note_number():
    book = credit.CreditNoteBook()
    assert book.issue("INV-7", 1999) == "CN-00001"
    assert book.issue("INV-8", 500) == "CN-00002"
''',
    }))

T.append(dict(
    topic="survey_schema_bootstrap", cls="order", test="test_answers_are_recorded",
    trigger="self-polluter: fails when the module runs twice in one process; the schema is created on a module-level :memory: connection that survives the first run ('table answers already exists')",
    robust="test order, repetition",
    files={
"CID_db.py": r'''
"""Storage of survey answers."""
import sqlite3

conn = sqlite3.connect(":memory:")  #@F


def connect():
    return conn  #@F
    return sqlite3.connect(":memory:")  #@S


def bootstrap(db):
    db.execute("CREATE TABLE answers (respondent TEXT, question INTEGER, answer TEXT)")


def record(db, respondent, question, answer):
    db.execute("INSERT INTO answers VALUES (?, ?, ?)", (respondent, question, answer))


def count(db):
    return db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
''',
"test_CID.py": r'''
import CID_db as db_mod


def test_answer_text_is_trimmed():
    assert " yes ".strip() == "yes"


def test_answers_are_recorded():
    db = db_mod.connect()
    db_mod.bootstrap(db)
    db_mod.record(db, "r1", 1, "yes")
    db_mod.record(db, "r1", 2, "no")
    assert db_mod.count(db) == 2
''',
    }))

# ----------------------------------------------------------------------------------------- resource leaks
T.append(dict(
    topic="geocode_worker_pool_leak", cls="resource", test="test_batch_job_leaves_no_worker_threads",
    trigger="victim of a leaked thread pool: runs after test_default_geocoder_lookup (reversed, shuffled, twice); the shared default Geocoder's ThreadPoolExecutor is never shut down, its idle 'geocode' worker threads stay alive",
    robust="test order, repetition",
    files={
"CID_geocode.py": r'''
"""Address geocoding with a small worker pool (the real lookups are HTTP calls)."""
import threading
from concurrent.futures import ThreadPoolExecutor

TABLE = {"10 Downing St": (51.5034, -0.1276), "Unter den Linden 1": (52.5170, 13.3960)}
_default = None


class Geocoder:
    def __init__(self, workers=2):
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="geocode")

    def lookup_many(self, addresses):
        return list(self.pool.map(TABLE.get, addresses))

    def close(self):
        self.pool.shutdown(wait=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def default_geocoder():
    global _default
    if _default is None:
        _default = Geocoder()
    return _default


def reset_default():
    global _default
    if _default is not None:
        _default.close()
        _default = None


def run_batch(addresses):
    with Geocoder() as g:
        return g.lookup_many(addresses)


def worker_threads():
    return [t.name for t in threading.enumerate() if t.name.startswith("geocode")]
''',
"test_CID.py": r'''
import pytest

import CID_geocode as geocode


@pytest.fixture
def geocoder():
    g = geocode.default_geocoder()
    yield g
    geocode.reset_default()  #@S


def test_batch_job_leaves_no_worker_threads():
    assert geocode.run_batch(["10 Downing St", "Unter den Linden 1"])[0] == (51.5034, -0.1276)
    assert geocode.worker_threads() == []


def test_default_geocoder_lookup(geocoder):
    assert geocoder.lookup_many(["Unter den Linden 1", "10 Downing St"]) == [(52.5170, 13.3960), (51.5034, -0.1276)]
''',
    }))

T.append(dict(
    topic="job_queue_shared_memdb", cls="resource", test="test_fresh_queue_is_empty",
    trigger="victim of a leaked connection: runs after test_worker_claims_job (reversed, shuffled, twice); the worker's connection to the shared-cache in-memory database is never closed, so the database (table jobs, one row) outlives the test",
    robust="test order, repetition",
    files={
"CID_jobs.py": r'''
"""A job queue on a shared-cache in-memory SQLite database (one per process, shared by threads)."""
import sqlite3

URI = "file:CID_queue?mode=memory&cache=shared"
_workers = []


def connect():
    return sqlite3.connect(URI, uri=True, check_same_thread=False)


def init_queue(conn):
    conn.execute("CREATE TABLE jobs (id INTEGER PRIMARY KEY, name TEXT, state TEXT DEFAULT 'queued')")
    conn.commit()


def enqueue(conn, name):
    conn.execute("INSERT INTO jobs(name) VALUES (?)", (name,))
    conn.commit()


def queued(conn):
    return conn.execute("SELECT COUNT(*) FROM jobs WHERE state = 'queued'").fetchone()[0]


class Worker:
    def __init__(self):
        self.conn = connect()
        _workers.append(self)

    def claim(self):
        row = self.conn.execute("SELECT id, name FROM jobs WHERE state = 'queued' ORDER BY id LIMIT 1").fetchone()
        self.conn.execute("UPDATE jobs SET state = 'running' WHERE id = ?", (row[0],))
        self.conn.commit()
        return row[1]


def stop_all():
    while _workers:
        _workers.pop().conn.close()
''',
"test_CID.py": r'''
import pytest

import CID_jobs as jobs


@pytest.fixture
def worker():
    w = jobs.Worker()
    yield w
    jobs.stop_all()  #@S


def test_fresh_queue_is_empty():
    conn = jobs.connect()
    try:
        jobs.init_queue(conn)
        assert jobs.queued(conn) == 0
        jobs.enqueue(conn, "reindex")
        assert jobs.queued(conn) == 1
    finally:
        conn.close()


def test_worker_claims_job(worker):
    jobs.init_queue(worker.conn)
    jobs.enqueue(worker.conn, "send-digest")
    assert worker.claim() == "send-digest"
''',
    }))
