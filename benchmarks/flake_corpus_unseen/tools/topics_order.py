# Order-dependency topics (victims, brittles, self-polluters) and resource leaks that act through order.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

T.append(dict(
    topic="audit_logger_setup", cls="order", test="test_login_is_audited",
    trigger="victim: runs after test_audit_lines_can_be_mirrored (reversed order, or module run twice); the polluter adds a second ListHandler to the audit logger and never removes it, so the idempotent setup_audit_log() returns the polluter's handler (already holding bob's line)",
    robust="test order, repetition",
    files={
"CID_audit.py": r'''
"""Audit trail for the admin backend (one line per security-relevant action)."""
import logging

logger = logging.getLogger("CID.audit")


class ListHandler(logging.Handler):
    """Keeps formatted audit lines in memory; the real app ships them to the SIEM in batches."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(self.format(record))


def setup_audit_log(handler=None):
    """Attach the audit handler once: repeated app start-ups must not duplicate audit lines."""
    existing = [h for h in logger.handlers if isinstance(h, ListHandler)]
    if existing:
        return existing[0]
    handler = handler or ListHandler()
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    return handler


def teardown_audit_log():
    for h in list(logger.handlers):
        if isinstance(h, ListHandler):
            logger.removeHandler(h)


def record_login(user, ip="10.0.0.1"):
    logger.info("login user=%s ip=%s", user, ip)
''',
"test_CID.py": r'''
import logging

import pytest

import CID_audit as audit_mod


@pytest.fixture
def audit():
    handler = audit_mod.setup_audit_log()
    yield handler
    audit_mod.teardown_audit_log()


def test_login_is_audited(audit):
    audit_mod.record_login("alice")
    assert audit.lines == ["INFO login user=alice ip=10.0.0.1"]


def test_audit_lines_can_be_mirrored():
    mirror = audit_mod.ListHandler()  # e.g. a second sink for the compliance archive
    audit_mod.logger.addHandler(mirror)
    audit_mod.logger.setLevel(logging.INFO)
    audit_mod.record_login("bob")  #@F
    assert mirror.lines == ["login user=bob ip=10.0.0.1"]  #@F
    try:  #@S
        audit_mod.record_login("bob")  #@S
        assert mirror.lines == ["login user=bob ip=10.0.0.1"]  #@S
    finally:  #@S
        audit_mod.logger.removeHandler(mirror)  #@S
'''}))

T.append(dict(
    topic="warehouse_csv_dialect", cls="order", test="test_stock_export_uses_semicolons",
    trigger="brittle: passes only after test_dialect_is_semicolon registered the 'warehouse' csv dialect (fails alone or in reversed order: csv.Error unknown dialect)",
    robust="test order, running alone",
    files={
"CID_export.py": r'''
"""Stock export for the warehouse partner (semicolon separated, as their ERP expects)."""
import csv
import io

DIALECT = "warehouse"


def register_dialect():
    csv.register_dialect(DIALECT, delimiter=";", quoting=csv.QUOTE_MINIMAL, lineterminator="\n")


register_dialect()  #@S


def export_stock(rows):
    buf = io.StringIO()
    writer = csv.writer(buf, dialect=DIALECT)
    writer.writerow(["sku", "qty", "location"])
    writer.writerows(rows)
    return buf.getvalue()
''',
"test_CID.py": r'''
import csv

import CID_export as export


def test_dialect_is_semicolon():
    export.register_dialect()
    d = csv.get_dialect(export.DIALECT)
    assert d.delimiter == ";" and d.lineterminator == "\n"


def test_stock_export_uses_semicolons():
    out = export.export_stock([("A-1", 3, "R1;S2"), ("B-2", 0, "R4")])
    assert out == 'sku;qty;location\nA-1;3;"R1;S2"\nB-2;0;R4\n'
'''}))

T.append(dict(
    topic="backup_cli_options", cls="order", test="test_s3_plugin_options",
    trigger="self-polluter: fails when the module runs twice in one process; plugin options are added to a module-global argparse parser, the second add_argument('--bucket') raises ArgumentError (conflicting option string)",
    robust="repetition, test order",
    files={
"CID_cli.py": r'''
"""backupctl command line: core options plus options contributed by storage plugins."""
import argparse


def _core_parser():
    p = argparse.ArgumentParser(prog="backupctl")
    p.add_argument("--dry-run", action="store_true")
    p.add_argument("--keep", type=int, default=7, help="number of snapshots to keep")
    return p


PARSER = _core_parser()  #@F


def parse(argv, plugins=()):
    parser = PARSER  #@F
    parser = _core_parser()  #@S
    for plugin in plugins:
        plugin(parser)
    return parser.parse_args(argv)
''',
"test_CID.py": r'''
import CID_cli as cli


def s3_options(parser):
    parser.add_argument("--bucket")
    parser.add_argument("--region", default="eu-central-1")


def test_core_options_only():
    args = cli.parse(["--dry-run", "--keep", "3"])
    assert args.dry_run and args.keep == 3


def test_s3_plugin_options():
    args = cli.parse(["--bucket", "nightly-db", "--dry-run"], plugins=[s3_options])
    assert args.bucket == "nightly-db"
    assert args.region == "eu-central-1"
    assert args.keep == 7
'''}))

T.append(dict(
    topic="idempotency_keys", cls="order", test="test_repeated_key_returns_original_payment",
    trigger="self-polluter: fails when the module runs twice in one process; idempotency keys are remembered in a module-global dict that outlives the PaymentAPI instance, so the first request of the second run already gets 409",
    robust="repetition, test order",
    files={
"CID_payments.py": r'''
"""POST /payments with an Idempotency-Key header (retries of the same request must not charge twice)."""
_seen_keys = {}  #@F


class PaymentAPI:
    def __init__(self):
        self.ledger = []
        self._seen_keys = {}  #@S

    def create_payment(self, key, amount_cents, currency="EUR"):
        seen = _seen_keys  #@F
        seen = self._seen_keys  #@S
        if key in seen:
            return 409, seen[key]
        payment_id = f"pay_{len(self.ledger) + 1:04d}"
        self.ledger.append((payment_id, amount_cents, currency))
        seen[key] = payment_id
        return 201, payment_id
''',
"test_CID.py": r'''
from CID_payments import PaymentAPI


def test_repeated_key_returns_original_payment():
    api = PaymentAPI()
    assert api.create_payment("order-1001", 2500) == (201, "pay_0001")
    assert api.create_payment("order-1001", 2500) == (409, "pay_0001")
    assert api.ledger == [("pay_0001", 2500, "EUR")]


def test_distinct_keys_create_distinct_payments():
    api = PaymentAPI()
    statuses = [api.create_payment(f"cart-{i}", 100 * i)[0] for i in range(1, 4)]
    assert statuses == [201, 201, 201]
'''}))

T.append(dict(
    topic="promo_clock_patch", cls="order", test="test_expired_code_is_rejected",
    trigger="victim: runs after test_code_valid_until_end_of_campaign (reversed order, or module run twice); the polluter replaces promos.utcnow by plain assignment instead of monkeypatch, so the clock stays frozen in 2025",
    robust="test order, repetition",
    files={
"CID_promos.py": r'''
"""Promo code validation for checkout."""
from dataclasses import dataclass
from datetime import datetime, timezone


class PromoExpired(Exception):
    pass


def utcnow():
    return datetime.now(timezone.utc)


@dataclass
class Promo:
    code: str
    percent_off: int
    ends_at: datetime


def validate(promo):
    if utcnow() >= promo.ends_at:
        raise PromoExpired(f"{promo.code} ended {promo.ends_at:%Y-%m-%d}")
    return True
''',
"test_CID.py": r'''
from datetime import datetime, timezone

import pytest

import CID_promos as promos

CAMPAIGN_END = datetime(2025, 12, 1, tzinfo=timezone.utc)


def test_expired_code_is_rejected():
    promo = promos.Promo("BLACKFRIDAY25", 25, CAMPAIGN_END)
    with pytest.raises(promos.PromoExpired):
        promos.validate(promo)


def test_code_valid_until_end_of_campaign(monkeypatch):
    frozen = datetime(2025, 11, 28, 12, 0, tzinfo=timezone.utc)
    promos.utcnow = lambda: frozen  #@F
    monkeypatch.setattr(promos, "utcnow", lambda: frozen)  #@S
    assert promos.validate(promos.Promo("BLACKFRIDAY25", 25, CAMPAIGN_END)) is True
'''}))

T.append(dict(
    topic="graceful_shutdown_signal", cls="order", test="test_sigterm_requests_graceful_shutdown",
    trigger="victim: runs after test_children_ignore_sigterm (reversed order, or module run twice); the polluter sets SIGTERM to SIG_IGN and never restores it, so GracefulShutdown.install() refuses to replace a foreign handler",
    robust="test order, repetition",
    files={
"CID_shutdown.py": r'''
"""Graceful shutdown for the queue worker: finish the current job on SIGTERM, then exit."""
import signal


class GracefulShutdown:
    def __init__(self):
        self.requested = False

    def _handle(self, signum, frame):
        self.requested = True

    def install(self):
        current = signal.getsignal(signal.SIGTERM)
        if current not in (signal.SIG_DFL, None):
            # someone else (a supervisor library, an embedding app) owns SIGTERM: do not clobber it
            return False
        signal.signal(signal.SIGTERM, self._handle)
        return True

    def uninstall(self):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def spawn_settings():
    """Settings for forked job children: they must ignore SIGTERM and let the parent drain."""
    return {"sigterm": signal.SIG_IGN}
''',
"test_CID.py": r'''
import os
import signal
import time

from CID_shutdown import GracefulShutdown, spawn_settings


def test_sigterm_requests_graceful_shutdown():
    gs = GracefulShutdown()
    assert gs.install(), "SIGTERM handler already taken"
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(200):
            if gs.requested:
                break
            time.sleep(0.001)
        assert gs.requested
    finally:
        gs.uninstall()


def test_children_ignore_sigterm():
    settings = spawn_settings()
    previous = signal.signal(signal.SIGTERM, settings["sigterm"])
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN  #@F
    try:  #@S
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN  #@S
    finally:  #@S
        signal.signal(signal.SIGTERM, previous)  #@S
'''}))

T.append(dict(
    topic="upload_mimetypes", cls="order", test="test_unknown_extension_is_octet_stream",
    trigger="victim: runs after test_ndjson_exports_are_typed (reversed order, or module run twice); the polluter registers '.jsonl' in the process-global mimetypes database",
    robust="test order, repetition",
    files={
"CID_storage.py": r'''
"""Content types for objects uploaded to the blob store."""
import mimetypes

CUSTOM_TYPES = {".jsonl": "application/x-ndjson", ".parquet": "application/vnd.apache.parquet"}


def register_custom_types(db=None):
    for ext, ctype in CUSTOM_TYPES.items():
        if db is None:
            mimetypes.add_type(ctype, ext)
        else:
            db.add_type(ctype, ext)


def content_type_for(filename, db=None):
    guess = (db or mimetypes).guess_type(filename)[0]
    return guess or "application/octet-stream"
''',
"test_CID.py": r'''
import mimetypes

import CID_storage as storage


def test_unknown_extension_is_octet_stream():
    assert storage.content_type_for("events-2026-11.jsonl") == "application/octet-stream"
    assert storage.content_type_for("report.txt") == "text/plain"


def test_ndjson_exports_are_typed():
    storage.register_custom_types()  #@F
    assert storage.content_type_for("events.jsonl") == "application/x-ndjson"  #@F
    db = mimetypes.MimeTypes()  #@S
    storage.register_custom_types(db)  #@S
    assert storage.content_type_for("events.jsonl", db) == "application/x-ndjson"  #@S
'''}))

T.append(dict(
    topic="feed_url_opener", cls="order", test="test_feed_is_read_from_file_url",
    trigger="victim: runs after test_empty_feed_renders_placeholder (reversed order, or module run twice); the polluter installs a global urllib opener with a stub file handler and never uninstalls it",
    robust="test order, repetition",
    files={
"CID_feeds.py": r'''
"""Partner product feeds (JSON over any URL scheme urllib understands; file:// in offline mode)."""
import json
import urllib.request


def load_feed(url):
    with urllib.request.urlopen(url, timeout=5) as resp:
        return json.loads(resp.read().decode("utf-8"))


def render_feed(url):
    items = load_feed(url)["items"]
    if not items:
        return "No products today."
    return "\n".join(f"{i['sku']}: {i['title']}" for i in items)
''',
"test_CID.py": r'''
import email.message
import io
import json
import urllib.request
import urllib.response

import CID_feeds as feeds


class EmptyFeedHandler(urllib.request.FileHandler):
    def file_open(self, req):
        headers = email.message.Message()
        headers["Content-Type"] = "application/json"
        return urllib.response.addinfourl(io.BytesIO(b'{"items": []}'), headers, req.full_url, 200)


def test_feed_is_read_from_file_url(tmp_path):
    path = tmp_path / "feed.json"
    path.write_text(json.dumps({"items": [{"sku": "K-1", "title": "Kettle"}, {"sku": "T-9", "title": "Toaster"}]}))
    assert feeds.render_feed(path.as_uri()) == "K-1: Kettle\nT-9: Toaster"


def test_empty_feed_renders_placeholder():
    urllib.request.install_opener(urllib.request.build_opener(EmptyFeedHandler))
    assert feeds.render_feed("file:///nonexistent/feed.json") == "No products today."  #@F
    try:  #@S
        assert feeds.render_feed("file:///nonexistent/feed.json") == "No products today."  #@S
    finally:  #@S
        urllib.request.install_opener(None)  #@S
'''}))

T.append(dict(
    topic="json_export_options", cls="order", test="test_default_dump_is_compact",
    trigger="victim: runs after test_pretty_dump_for_humans (reversed order, or module run twice); options() returns the module-level DEFAULTS dict itself, which the polluter's overrides mutate",
    robust="test order, repetition",
    files={
"CID_jsonexport.py": r'''
"""JSON export of orders with per-call formatting overrides."""
import json

DEFAULTS = {"indent": None, "sort_keys": False, "ensure_ascii": True, "separators": (",", ":")}


def options(**overrides):
    opts = DEFAULTS  #@F
    opts = dict(DEFAULTS)  #@S
    opts.update(overrides)
    if opts["indent"] is not None and overrides.get("separators") is None:
        opts["separators"] = (",", ": ")
    return opts


def dump(obj, **overrides):
    return json.dumps(obj, **options(**overrides))
''',
"test_CID.py": r'''
import CID_jsonexport as jsonexport

ORDER = {"id": 17, "customer": "Zoë", "lines": [{"sku": "A", "qty": 2}]}


def test_default_dump_is_compact():
    assert jsonexport.dump(ORDER) == '{"id":17,"customer":"Zo\\u00eb","lines":[{"sku":"A","qty":2}]}'


def test_pretty_dump_for_humans():
    out = jsonexport.dump(ORDER, indent=2, sort_keys=True, ensure_ascii=False)
    assert out.splitlines()[1] == '  "customer": "Zoë",'
'''}))

T.append(dict(
    topic="country_table", cls="order", test="test_vat_rate_for_germany",
    trigger="brittle: passes only after test_load_country_table filled the module-level table (fails alone or in reversed order with KeyError)",
    robust="test order, running alone",
    files={
"CID_countries.json": r'''
[{"code": "DE", "name": "Germany", "vat": 19}, {"code": "AT", "name": "Austria", "vat": 20},
 {"code": "FR", "name": "France", "vat": 20}, {"code": "LU", "name": "Luxembourg", "vat": 17},
 {"code": "HU", "name": "Hungary", "vat": 27}]
''',
"CID_geo.py": r'''
"""Country reference data (VAT rates) loaded from the bundled JSON table."""
import json
from pathlib import Path

DATA = Path(__file__).with_name("CID_countries.json")
_TABLE = {}


def load(path=DATA):
    _TABLE.clear()
    for row in json.loads(Path(path).read_text()):
        _TABLE[row["code"]] = row
    return len(_TABLE)


def lookup(code):
    if not _TABLE:  #@S
        load()  #@S
    return _TABLE[code.upper()]


def vat_rate(code):
    return lookup(code)["vat"]
''',
"test_CID.py": r'''
import CID_geo as geo


def test_load_country_table():
    assert geo.load() == 5


def test_vat_rate_for_germany():
    assert geo.vat_rate("de") == 19
    assert geo.lookup("HU")["name"] == "Hungary"
'''}))

T.append(dict(
    topic="mail_outbox", cls="order", test="test_password_reset_sends_single_email",
    trigger="victim: runs after test_welcome_email_subject (reversed order, or module run twice); the in-memory outbox (Django-style mail.outbox) is a module-global list nobody empties between tests",
    robust="test order, repetition",
    files={
"CID_mail.py": r'''
"""Transactional e-mail. In tests the locmem backend collects messages in `outbox`."""
from dataclasses import dataclass

outbox = []


@dataclass
class Message:
    to: str
    subject: str
    body: str


def send(to, subject, body):
    outbox.append(Message(to, subject, body))


def send_welcome(user_email, name):
    send(user_email, f"Welcome, {name}!", "Thanks for signing up.")


def send_password_reset(user_email, token):
    send(user_email, "Reset your password", f"https://shop.example.test/reset/{token}")
''',
"test_CID.py": r'''
import pytest

import CID_mail as mail


@pytest.fixture(autouse=True)  #@S
def empty_outbox():  #@S
    mail.outbox.clear()  #@S
    yield  #@S
    mail.outbox.clear()  #@S


def test_password_reset_sends_single_email():
    mail.send_password_reset("kim@example.test", "t0k3n")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Reset your password"
    assert mail.outbox[0].body.endswith("/reset/t0k3n")


def test_welcome_email_subject():
    mail.send_welcome("lee@example.test", "Lee")
    assert mail.outbox[-1].subject == "Welcome, Lee!"
'''}))

T.append(dict(
    topic="bulk_import_logging", cls="order", test="test_oversell_logs_warning",
    trigger="victim: runs after test_bulk_import_is_quiet (reversed order, or module run twice); the polluter calls logging.disable(logging.WARNING) to silence the import and never re-enables logging, so caplog sees no records",
    robust="test order, repetition",
    files={
"CID_inventory.py": r'''
"""Stock reservations."""
import logging

log = logging.getLogger("CID.inventory")


def reserve(stock, sku, qty):
    available = stock.get(sku, 0)
    if qty > available:
        log.warning("oversell sku=%s wanted=%d available=%d", sku, qty, available)
        return False
    stock[sku] = available - qty
    return True


def bulk_import(stock, rows):
    for sku, qty in rows:
        if qty < 0:
            log.warning("negative quantity for %s ignored", sku)
            continue
        stock[sku] = stock.get(sku, 0) + qty
    return stock
''',
"test_CID.py": r'''
import logging

import CID_inventory as inventory


def test_oversell_logs_warning(caplog):
    stock = {"A1": 2}
    assert inventory.reserve(stock, "A1", 5) is False
    assert "oversell sku=A1 wanted=5 available=2" in caplog.text


def test_bulk_import_is_quiet():
    rows = [(f"S{i}", -1 if i % 3 == 0 else i) for i in range(300)]
    logging.disable(logging.WARNING)  # thousands of warnings make the output unreadable
    stock = inventory.bulk_import({}, rows)  #@F
    assert len(stock) == 200  #@F
    try:  #@S
        stock = inventory.bulk_import({}, rows)  #@S
        assert len(stock) == 200  #@S
    finally:  #@S
        logging.disable(logging.NOTSET)  #@S
'''}))

T.append(dict(
    topic="template_filters", cls="order", test="test_invoice_line_renders_amount",
    trigger="brittle: the 'money' filter is registered when CID_filters is imported, which only test_money_filter_registered does (fails alone or in reversed order with KeyError 'money')",
    robust="test order, running alone",
    files={
"CID_templates.py": r'''
"""A very small template engine: {{ name }} and {{ name|filter }}."""
import re

FILTERS = {"upper": str.upper}
_TOKEN = re.compile(r"\{\{\s*(\w+)(?:\|(\w+))?\s*\}\}")


def register_filter(name):
    def deco(fn):
        FILTERS[name] = fn
        return fn
    return deco


def render(template, **context):
    def sub(m):
        value = context[m.group(1)]
        if m.group(2):
            value = FILTERS[m.group(2)](value)
        return str(value)
    return _TOKEN.sub(sub, template)
''',
"CID_filters.py": r'''
"""Built-in filters of the shop templates."""
from decimal import Decimal

from CID_templates import register_filter


@register_filter("money")
def money(cents):
    return f"{Decimal(cents) / 100:,.2f} EUR"
''',
"test_CID.py": r'''
import CID_templates as templates
import CID_filters  # noqa: F401  (registers the built-in filters)  #@S


def test_money_filter_registered():
    import CID_filters
    assert templates.FILTERS["money"] is CID_filters.money


def test_invoice_line_renders_amount():
    line = templates.render("{{ qty }} x {{ sku|upper }}: {{ total|money }}", qty=3, sku="mug-12", total=123456)
    assert line == "3 x MUG-12: 1,234.56 EUR"
'''}))

T.append(dict(
    topic="sqlite_datetime_adapter", cls="order", test="test_event_timestamp_roundtrip",
    trigger="victim: runs after test_epoch_adapter_for_metrics (reversed order, or module run twice); the polluter registers a process-global sqlite3 adapter for datetime and never removes it",
    robust="test order, repetition",
    files={
"CID_events.py": r'''
"""Event log stored in sqlite."""
import sqlite3


def connect(path=":memory:"):
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS events (name TEXT, at)")
    return conn


def record(conn, name, at):
    conn.execute("INSERT INTO events VALUES (?, ?)", (name, at))


def timestamps(conn):
    return [row[0] for row in conn.execute("SELECT at FROM events ORDER BY rowid")]


def epoch_adapter(dt):
    return dt.timestamp()
''',
"test_CID.py": r'''
import sqlite3
from datetime import datetime, timezone

import CID_events as events


def test_event_timestamp_roundtrip():
    conn = events.connect()
    events.record(conn, "signup", datetime(2026, 1, 5, 10, 30))
    assert events.timestamps(conn) == ["2026-01-05 10:30:00"]


def test_epoch_adapter_for_metrics():
    previous = sqlite3.adapters.get((datetime, sqlite3.PrepareProtocol))  #@S
    sqlite3.register_adapter(datetime, events.epoch_adapter)
    conn = events.connect()  #@F
    events.record(conn, "tick", datetime(2026, 1, 1, tzinfo=timezone.utc))  #@F
    assert events.timestamps(conn) == [1767225600.0]  #@F
    try:  #@S
        conn = events.connect()  #@S
        events.record(conn, "tick", datetime(2026, 1, 1, tzinfo=timezone.utc))  #@S
        assert events.timestamps(conn) == [1767225600.0]  #@S
    finally:  #@S
        sqlite3.register_adapter(datetime, previous)  #@S
'''}))

T.append(dict(
    topic="report_format_plugins", cls="order", test="test_xml_exporter_is_discovered",
    trigger="self-polluter: fails when the module runs twice in one process; the test defines its plugin class inside the test body, and __init_subclass__ rejects the second registration of 'xml'",
    robust="repetition, test order",
    files={
"CID_exporters.py": r'''
"""Report exporters register themselves by subclassing Exporter."""


class Exporter:
    registry = {}
    name = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name in Exporter.registry:
            raise ValueError(f"duplicate exporter {cls.name!r}")
        Exporter.registry[cls.name] = cls

    def export(self, rows):
        raise NotImplementedError


class CsvExporter(Exporter):
    name = "csv"

    def export(self, rows):
        return "\n".join(",".join(map(str, r)) for r in rows)


def export(fmt, rows):
    return Exporter.registry[fmt]().export(rows)
''',
"test_CID.py": r'''
from CID_exporters import Exporter, export


class XmlExporter(Exporter):  #@S
    name = "xml"  #@S
  #@S
    def export(self, rows):  #@S
        return "<rows>" + "".join(f"<r>{','.join(map(str, r))}</r>" for r in rows) + "</rows>"  #@S
  #@S
  #@S
def test_csv_is_builtin():
    assert export("csv", [(1, 2)]) == "1,2"


def test_xml_exporter_is_discovered():
    class XmlExporter(Exporter):  #@F
        name = "xml"  #@F
  #@F
        def export(self, rows):  #@F
            return "<rows>" + "".join(f"<r>{','.join(map(str, r))}</r>" for r in rows) + "</rows>"  #@F
  #@F
    assert Exporter.registry["xml"] is XmlExporter
    assert export("xml", [(1, 2)]) == "<rows><r>1,2</r></rows>"
'''}))

# ---- resource leaks acting through order ----
T.append(dict(
    topic="sqlite_lock_leak", cls="resource", test="test_enqueue_job",
    trigger="victim: runs after test_batch_rejects_invalid_job (reversed order; not when the module runs twice, because the module-scoped fixture closes leaked writers between the two copies); the polluter leaves a BatchWriter with an open BEGIN IMMEDIATE transaction, so the next writer gets 'database is locked' after its 0.2 s busy timeout",
    robust="test order, repetition",
    files={
"CID_jobs.py": r'''
"""Job queue persisted in a sqlite file shared by the web app and the workers."""
import sqlite3

_open_writers = []  # closed by close_all() at worker shutdown


def connect(path, timeout=0.2):
    return sqlite3.connect(path, timeout=timeout, isolation_level=None)


def init(path):
    conn = connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS jobs (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    conn.close()


def enqueue(path, name):
    conn = connect(path)
    try:
        conn.execute("INSERT INTO jobs (name) VALUES (?)", (name,))
    finally:
        conn.close()


def names(path):
    conn = connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT name FROM jobs ORDER BY id")]
    finally:
        conn.close()


class BatchWriter:
    def __init__(self, path):
        self.conn = connect(path)
        _open_writers.append(self)

    def begin(self):
        self.conn.execute("BEGIN IMMEDIATE")

    def add(self, name):
        if not name:
            raise ValueError("job name required")
        self.conn.execute("INSERT INTO jobs (name) VALUES (?)", (name,))

    def commit(self):
        self.conn.execute("COMMIT")

    def abort(self):
        self.conn.execute("ROLLBACK")
        self.conn.close()
        _open_writers.remove(self)


def close_all():
    for w in list(_open_writers):
        w.conn.close()
        _open_writers.remove(w)
''',
"test_CID.py": r'''
import pytest

import CID_jobs as jobs


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("queue") / "jobs.sqlite"
    jobs.init(path)
    yield path
    jobs.close_all()


def test_enqueue_job(db):
    jobs.enqueue(db, "resize-images")
    assert "resize-images" in jobs.names(db)


def test_batch_rejects_invalid_job(db):
    writer = jobs.BatchWriter(db)
    writer.begin()
    writer.add("send-digest")
    with pytest.raises(ValueError):
        writer.add("")
    writer.abort()  #@S
'''}))

T.append(dict(
    topic="deadline_alarm_leak", cls="resource", test="test_catalog_export_completes",
    trigger="victim: runs within 0.25 s after test_deadline_propagates_errors (reversed order, or module run twice); run_with_deadline cancels its SIGALRM timer only when the function succeeds, so the armed timer fires inside the next test and raises DeadlineExceeded",
    robust="test order, repetition",
    files={
"CID_deadline.py": r'''
"""SIGALRM-based deadline for blocking calls in the (single-threaded) export worker."""
import signal


class DeadlineExceeded(Exception):
    pass


def _raise(signum, frame):
    raise DeadlineExceeded("deadline exceeded")


def run_with_deadline(fn, seconds):
    signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    result = fn()  #@F
    signal.setitimer(signal.ITIMER_REAL, 0)  #@F
    try:  #@S
        result = fn()  #@S
    finally:  #@S
        signal.setitimer(signal.ITIMER_REAL, 0)  #@S
    return result
''',
"CID_catalog.py": r'''
"""Catalog export: fetches pages from the (here: simulated) product service."""
import time


def fetch_page(n):
    time.sleep(0.003)  # network round trip to the product service
    return [{"sku": f"P{n:03d}{i}", "price": 100 + i} for i in range(10)]


def export_catalog(pages=120):
    rows = []
    for n in range(pages):
        rows.extend(fetch_page(n))
    return rows
''',
"test_CID.py": r'''
import pytest

from CID_catalog import export_catalog
from CID_deadline import run_with_deadline


def test_catalog_export_completes():
    rows = export_catalog()
    assert len(rows) == 1200
    assert rows[0] == {"sku": "P0000", "price": 100}


def test_deadline_propagates_errors():
    with pytest.raises(ValueError):
        run_with_deadline(lambda: int("not-a-number"), 0.25)
'''}))
