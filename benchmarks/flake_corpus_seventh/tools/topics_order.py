# Order-dependency topics (victims, brittles, self-polluters) and resource leaks that act through order.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

# ----------------------------------------------------------------------------------------- victims
T.append(
    dict(
        topic="api_key_hash_iterations",
        cls="order",
        test="test_new_keys_use_policy_iterations",
        trigger="victim: runs after test_verify_rejects_wrong_key (reversed, shuffled, twice); that test lowers the class attribute KeyHasher.iterations to 1 by plain assignment to make the test fast and never restores it, so later hashes carry '$1$'",
        robust="test order, repetition",
        files={
            "CID_keys.py": r'''
"""API keys are stored as PBKDF2 hashes in a self-describing format: pbkdf2_<alg>$<iterations>$<salt>$<hash>."""
import hashlib
import hmac
import os


class KeyHasher:
    algorithm = "sha256"
    iterations = 120_000  # security policy; old hashes keep their own count and still verify

    def hash(self, key, salt=None):
        salt = salt or os.urandom(8)
        dk = hashlib.pbkdf2_hmac(self.algorithm, key.encode(), salt, self.iterations)
        return f"pbkdf2_{self.algorithm}${self.iterations}${salt.hex()}${dk.hex()}"

    def verify(self, key, stored):
        _, iterations, salt, digest = stored.split("$")
        dk = hashlib.pbkdf2_hmac(self.algorithm, key.encode(), bytes.fromhex(salt), int(iterations))
        return hmac.compare_digest(dk.hex(), digest)

    def needs_rehash(self, stored):
        return int(stored.split("$")[1]) < self.iterations
''',
            "test_CID.py": r"""
import CID_keys as keys


def test_new_keys_use_policy_iterations():
    hasher = keys.KeyHasher()
    stored = hasher.hash("sk_live_51HxQk2", salt=b"\x00" * 8)
    assert stored.split("$")[1] == "120000"
    assert hasher.verify("sk_live_51HxQk2", stored)
    assert not hasher.needs_rehash(stored)


def test_verify_rejects_wrong_key(monkeypatch):
    keys.KeyHasher.iterations = 1  # the count does not matter here; keep the test fast  #@F
    monkeypatch.setattr(keys.KeyHasher, "iterations", 1)  # the count does not matter here; keep the test fast  #@S
    hasher = keys.KeyHasher()
    stored = hasher.hash("sk_live_51HxQk2")
    assert not hasher.verify("sk_live_51HxQk3", stored)
""",
        },
    )
)

T.append(
    dict(
        topic="tax_rate_provider_stub",
        cls="order",
        test="test_oregon_has_no_sales_tax",
        trigger="victim: runs after test_tax_uses_provider_rate (reversed, shuffled, twice); that test replaces rates.fetch_rate with a lambda by plain module-attribute assignment and never puts the real function back",
        robust="test order, repetition",
        files={
            "CID_rates.py": r'''
"""Sales-tax rates by US state. Production asks the tax service; the bundled statutory base rates are the offline default."""
BASE_RATES = {"OR": "0.00", "CA": "0.0725", "NY": "0.04", "TX": "0.0625", "MT": "0.00"}


def fetch_rate(state):
    return BASE_RATES[state]
''',
            "CID_checkout.py": r"""
from decimal import Decimal

import CID_rates as rates


def sales_tax(subtotal, state):
    rate = Decimal(rates.fetch_rate(state))
    return (Decimal(subtotal) * rate).quantize(Decimal("0.01"))


def total(subtotal, state):
    return Decimal(subtotal) + sales_tax(subtotal, state)
""",
            "test_CID.py": r"""
from decimal import Decimal

import CID_checkout as checkout
import CID_rates as rates


def test_oregon_has_no_sales_tax():
    assert checkout.sales_tax("100.00", "OR") == Decimal("0.00")
    assert checkout.total("59.90", "OR") == Decimal("59.90")


def test_tax_uses_provider_rate(monkeypatch):
    rates.fetch_rate = lambda state: "0.10"  #@F
    monkeypatch.setattr(rates, "fetch_rate", lambda state: "0.10")  #@S
    assert checkout.sales_tax("19.99", "OR") == Decimal("2.00")
""",
        },
    )
)

T.append(
    dict(
        topic="scratch_tempdir_override",
        cls="order",
        test="test_export_quotes_commas",
        trigger="victim: runs after test_spool_stays_in_private_dir (reversed, shuffled, twice); its fixture assigns tempfile.tempdir to a TemporaryDirectory that is removed at teardown without resetting tempfile.tempdir, so the next TemporaryFile() raises FileNotFoundError",
        robust="test order, repetition",
        files={
            "CID_export.py": r'''
"""Spreadsheet export: rows are spooled into an anonymous temporary file before they are streamed out."""
import csv
import tempfile


def export_rows(rows):
    with tempfile.TemporaryFile("w+", newline="", encoding="utf-8") as spool:
        writer = csv.writer(spool)
        for row in rows:
            writer.writerow(row)
        spool.seek(0)
        return spool.read()
''',
            "test_CID.py": r"""
import tempfile

import pytest

import CID_export as export


@pytest.fixture
def private_tempdir(monkeypatch):
    d = tempfile.TemporaryDirectory(prefix="spool-")
    tempfile.tempdir = d.name  #@F
    monkeypatch.setattr(tempfile, "tempdir", d.name)  #@S
    yield d.name
    d.cleanup()


def test_export_quotes_commas():
    out = export.export_rows([["Smith, J.", "10.00"], ["Ng", "5"]])
    assert out == '"Smith, J.",10.00\r\nNg,5\r\n'


def test_spool_stays_in_private_dir(private_tempdir):
    assert tempfile.gettempdir() == private_tempdir
    assert export.export_rows([["a", 1]]) == "a,1\r\n"
""",
        },
    )
)

T.append(
    dict(
        topic="search_backend_settings_reload",
        cls="order",
        test="test_default_backend_is_sqlite",
        trigger="victim: runs after test_elasticsearch_backend_from_env (reversed, shuffled, twice); that test sets env vars with monkeypatch (undone) but importlib.reload()s the settings module, whose module-level constants keep the patched values after the env is restored",
        robust="test order, repetition",
        files={
            "CID_settings.py": r'''
"""Settings read from the environment once, at import time."""
import os

SEARCH_BACKEND = os.environ.get("SEARCH_BACKEND", "sqlite-fts")
SEARCH_TIMEOUT = float(os.environ.get("SEARCH_TIMEOUT", "2.5"))
''',
            "CID_search.py": r"""
import CID_settings as settings


def backend_info():
    return {"backend": settings.SEARCH_BACKEND, "timeout": settings.SEARCH_TIMEOUT}
""",
            "test_CID.py": r"""
import importlib

import pytest

import CID_search as search
import CID_settings as settings


@pytest.fixture
def reload_settings(monkeypatch):
    def _reload(**env):
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        importlib.reload(settings)
    yield _reload
    monkeypatch.undo()  #@S
    importlib.reload(settings)  # back to the real environment  #@S


def test_default_backend_is_sqlite():
    assert search.backend_info() == {"backend": "sqlite-fts", "timeout": 2.5}


def test_elasticsearch_backend_from_env(reload_settings):
    reload_settings(SEARCH_BACKEND="elasticsearch", SEARCH_TIMEOUT="10")
    assert search.backend_info() == {"backend": "elasticsearch", "timeout": 10.0}
""",
        },
    )
)

T.append(
    dict(
        topic="sms_gateway_log_disable",
        cls="order",
        test="test_send_is_logged_with_masked_number",
        trigger="victim: runs after test_bulk_send_rejects_long_message (reversed, shuffled, twice); bulk_send() calls logging.disable(INFO) and re-enables logging only on success (no try/finally), so after the ValueError all INFO records are dropped process-wide and the support ring buffer stays empty",
        robust="test order, repetition",
        files={
            "CID_sms.py": r'''
"""SMS gateway client; every send is logged for the support team (number masked) and kept in a
ring buffer that the support dashboard shows."""
import collections
import logging

log = logging.getLogger("sms.gateway")
log.setLevel(logging.INFO)


class _RingBuffer(logging.Handler):
    def __init__(self, size=200):
        super().__init__(logging.INFO)
        self.lines = collections.deque(maxlen=size)

    def emit(self, record):
        self.lines.append(record.getMessage())


SUPPORT_BUFFER = _RingBuffer()
log.addHandler(SUPPORT_BUFFER)


def recent_log():
    return list(SUPPORT_BUFFER.lines)


def mask(number):
    return number[:3] + "*" * (len(number) - 5) + number[-2:]


class Gateway:
    def __init__(self):
        self.sent = []

    def send(self, number, text):
        if len(text) > 160:
            raise ValueError("message longer than one SMS segment")
        self.sent.append((number, text))
        log.info("sms to %s: %d chars", mask(number), len(text))
        return len(self.sent)


def bulk_send(gateway, numbers, text):
    logging.disable(logging.INFO)  # campaigns send 10k messages: do not flood the log with per-message lines
    for number in numbers:  #@F
        gateway.send(number, text)  #@F
    logging.disable(logging.NOTSET)  #@F
    try:  #@S
        for number in numbers:  #@S
            gateway.send(number, text)  #@S
    finally:  #@S
        logging.disable(logging.NOTSET)  #@S
    return len(numbers)
''',
            "test_CID.py": r'''
import pytest

import CID_sms as sms


def test_send_is_logged_with_masked_number():
    before = len(sms.recent_log())
    sms.Gateway().send("+4915112345678", "Your code is 123456")
    assert sms.recent_log()[before:] == ["sms to +49*********78: 19 chars"]


def test_bulk_send_rejects_long_message():
    gateway = sms.Gateway()
    with pytest.raises(ValueError):
        sms.bulk_send(gateway, ["+4915100000001", "+4915100000002"], "x" * 161)
    assert gateway.sent == []
''',
        },
    )
)

T.append(
    dict(
        topic="tenant_contextvar_leak",
        cls="order",
        test="test_public_schema_by_default",
        trigger="victim: runs after test_tenant_tables_are_prefixed (reversed, shuffled, twice); that test calls current_tenant.set('acme') without resetting the token; pytest runs tests in one context, so the ContextVar keeps 'acme'",
        robust="test order, repetition",
        files={
            "CID_tenancy.py": r'''
"""Schema-per-tenant routing: the current tenant lives in a ContextVar set by the request middleware."""
import contextvars

current_tenant = contextvars.ContextVar("current_tenant", default="public")


def table_name(model):
    tenant = current_tenant.get()
    return model if tenant == "public" else f"{tenant}__{model}"


class tenant_scope:
    def __init__(self, tenant):
        self.tenant = tenant

    def __enter__(self):
        self._token = current_tenant.set(self.tenant)
        return self

    def __exit__(self, *exc):
        current_tenant.reset(self._token)
''',
            "test_CID.py": r"""
import CID_tenancy as tenancy


def test_public_schema_by_default():
    assert tenancy.table_name("invoices") == "invoices"
    assert tenancy.table_name("users") == "users"


def test_tenant_tables_are_prefixed():
    tenancy.current_tenant.set("acme")  #@F
    assert tenancy.table_name("invoices") == "acme__invoices"  #@F
    with tenancy.tenant_scope("acme"):  #@S
        assert tenancy.table_name("invoices") == "acme__invoices"  #@S
""",
        },
    )
)

T.append(
    dict(
        topic="booking_calendar_firstweekday",
        cls="order",
        test="test_month_grid_starts_monday",
        trigger="victim: runs after test_us_grid_starts_sunday (reversed, shuffled, twice); that test calls calendar.setfirstweekday(SUNDAY), which changes the calendar module's process-wide default, and never restores it",
        robust="test order, repetition",
        files={
            "CID_grid.py": r'''
"""Month grid of the booking widget: weeks as rows, 0 = day outside the month."""
import calendar


def month_grid(year, month):
    return calendar.monthcalendar(year, month)


def week_header():
    return calendar.weekheader(2).split()
''',
            "test_CID.py": r"""
import calendar

import CID_grid as grid


def test_month_grid_starts_monday():
    rows = grid.month_grid(2026, 12)  # 1 December 2026 is a Tuesday
    assert rows[0] == [0, 1, 2, 3, 4, 5, 6]
    assert grid.week_header()[0] == "Mo"


def test_us_grid_starts_sunday():
    calendar.setfirstweekday(calendar.SUNDAY)  #@F
    rows = grid.month_grid(2026, 12)  #@F
    rows = calendar.Calendar(firstweekday=calendar.SUNDAY).monthdayscalendar(2026, 12)  #@S
    assert rows[0] == [0, 0, 1, 2, 3, 4, 5]
""",
        },
    )
)

# ----------------------------------------------------------------------------------------- brittles
T.append(
    dict(
        topic="currency_formatter_registry_init",
        cls="order",
        test="test_euro_prices_use_german_separators",
        trigger="brittle: passes only after test_bootstrap_registers_default_currencies has called money.bootstrap(); alone, reversed or in some shuffles the formatter registry is empty (KeyError 'EUR')",
        robust="test order, running alone",
        files={
            "CID_money.py": r'''
"""Price formatting. Formatters are registered per currency by bootstrap(), which the app calls at start-up."""
from decimal import Decimal

_FORMATTERS = {}


def register(code, fn):
    _FORMATTERS[code] = fn


def _german(amount):
    text = f"{amount:,.2f}"
    return text.replace(",", "X").replace(".", ",").replace("X", ".") + " \u20ac"


def bootstrap():
    register("EUR", _german)
    register("USD", lambda amount: f"${amount:,.2f}")
    register("JPY", lambda amount: f"\u00a5{amount:,.0f}")


def format_price(amount, code):
    return _FORMATTERS[code](Decimal(amount))
''',
            "test_CID.py": r"""
import pytest

import CID_money as money


@pytest.fixture
def app():
    money.bootstrap()


def test_bootstrap_registers_default_currencies():
    money.bootstrap()
    assert {"EUR", "USD", "JPY"} <= set(money._FORMATTERS)


def test_euro_prices_use_german_separators():  #@F
def test_euro_prices_use_german_separators(app):  #@S
    assert money.format_price("1234.5", "EUR") == "1.234,50 \u20ac"
    assert money.format_price("0.99", "EUR") == "0,99 \u20ac"
""",
        },
    )
)

T.append(
    dict(
        topic="vendored_slugify_path",
        cls="order",
        test="test_post_url_is_slugified",
        trigger="brittle: passes only after test_vendored_packages_are_importable has put the vendor directory on sys.path; alone, reversed or in some shuffles the lazy 'from CID_slugify import slugify' raises ModuleNotFoundError",
        robust="test order, running alone",
        files={
            "CID_vendor/CID_slugify.py": r'''
"""Vendored copy of a tiny slugify helper (kept out of the top-level package on purpose)."""
import re
import unicodedata

__version__ = "4.0.1"


def slugify(text):
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
''',
            "CID_blog.py": r'''
"""Blog URLs. Third-party helpers live in CID_vendor/ and are imported lazily."""
import os
import sys

VENDOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "CID_vendor")


def enable_vendored():
    if VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)


def post_url(title, year):
    from CID_slugify import slugify
    return f"/{year}/{slugify(title)}/"


enable_vendored()  # the package puts its vendor directory on sys.path at import  #@S
''',
            "test_CID.py": r"""
import CID_blog as blog


def test_vendored_packages_are_importable():
    blog.enable_vendored()
    import CID_slugify
    assert CID_slugify.__version__ == "4.0.1"


def test_post_url_is_slugified():
    assert blog.post_url("Hello, World: Part 2!", 2026) == "/2026/hello-world-part-2/"
    assert blog.post_url("Caf\u00e9 cr\u00e8me", 2025) == "/2025/cafe-creme/"
""",
        },
    )
)

T.append(
    dict(
        topic="csrf_secret_env_brittle",
        cls="order",
        test="test_token_round_trip",
        trigger="brittle: passes only after test_dev_settings_provide_secret has put APP_SECRET_KEY into os.environ (setdefault, never removed); alone, reversed or in some shuffles make_token() raises KeyError",
        robust="test order, running alone",
        files={
            "CID_csrf.py": r'''
"""CSRF tokens: HMAC of the session id with the application secret."""
import hashlib
import hmac
import os


def _secret():
    return os.environ["APP_SECRET_KEY"].encode()


def make_token(session_id):
    return hmac.new(_secret(), session_id.encode(), hashlib.sha256).hexdigest()[:32]


def check_token(session_id, token):
    return hmac.compare_digest(make_token(session_id), token)
''',
            "test_CID.py": r"""
import os

import pytest


import CID_csrf as csrf


@pytest.fixture
def secret(monkeypatch):
    monkeypatch.setenv("APP_SECRET_KEY", "test-secret-key-0123")


def test_dev_settings_provide_secret():
    os.environ.setdefault("APP_SECRET_KEY", "dev-insecure-key")  # what settings/dev.py does  #@F
    assert len(os.environ["APP_SECRET_KEY"]) >= 16  #@F
    with pytest.MonkeyPatch.context() as mp:  #@S
        mp.setenv("APP_SECRET_KEY", os.environ.get("APP_SECRET_KEY", "dev-insecure-key"))  #@S
        assert len(os.environ["APP_SECRET_KEY"]) >= 16  #@S


def test_token_round_trip():  #@F
def test_token_round_trip(secret):  #@S
    token = csrf.make_token("sess-9f1c")
    assert len(token) == 32
    assert csrf.check_token("sess-9f1c", token)
    assert not csrf.check_token("sess-other", token)
""",
        },
    )
)

# ----------------------------------------------------------------------------------------- self-polluters
T.append(
    dict(
        topic="cli_subcommand_registry",
        cls="order",
        test="test_plugin_subcommand_runs",
        trigger="self-polluter: fails when the module runs twice in one process (twice); the test registers 'rotate-logs' in the module-global COMMANDS registry and the second registration raises ValueError",
        robust="test order, repetition",
        files={
            "CID_cli.py": r'''
"""ops CLI: subcommands register themselves with @command(name)."""
import argparse

COMMANDS = {}


def command(name, help=""):
    def deco(fn):
        if name in COMMANDS:
            raise ValueError(f"subcommand {name!r} registered twice")
        COMMANDS[name] = (fn, help)
        return fn
    return deco


def build_parser():
    parser = argparse.ArgumentParser(prog="ops")
    sub = parser.add_subparsers(dest="cmd", required=True)
    for name, (_, help_text) in sorted(COMMANDS.items()):
        sub.add_parser(name, help=help_text)
    return parser


def main(argv):
    args = build_parser().parse_args(argv)
    return COMMANDS[args.cmd][0]()


@command("version", help="print the version")
def version():
    return "ops 2.3.1"
''',
            "test_CID.py": r"""
import pytest

import CID_cli as cli


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(cli, "COMMANDS", dict(cli.COMMANDS))
    return cli.COMMANDS


def test_version_command():
    assert cli.main(["version"]) == "ops 2.3.1"


def test_plugin_subcommand_runs():  #@F
def test_plugin_subcommand_runs(registry):  #@S
    @cli.command("rotate-logs", help="rotate and compress logs")
    def rotate_logs():
        return "rotated 3 files"

    assert cli.main(["rotate-logs"]) == "rotated 3 files"
""",
        },
    )
)

T.append(
    dict(
        topic="issue_default_labels",
        cls="order",
        test="test_bug_report_labels",
        trigger="self-polluter: fails when the module runs twice in one process (twice); new_issue() extends the list returned by an lru_cache'd default_labels() in place, so the cached default grows by 'bug' on every call",
        robust="test order, repetition",
        files={
            "CID_tracker.json": r"""
{"default_labels": ["triage"], "project": "storefront"}
""",
            "CID_issues.py": r'''
"""Issue intake: every new issue gets the project's default labels plus the reporter's labels."""
import functools
import json
import pathlib

CONFIG = pathlib.Path(__file__).with_name("CID_tracker.json")


@functools.lru_cache(maxsize=None)
def default_labels():
    return json.loads(CONFIG.read_text())["default_labels"]  # read once per process


def new_issue(title, extra_labels=()):
    labels = default_labels()  #@F
    labels = list(default_labels())  #@S
    labels += list(extra_labels)
    return {"title": title, "labels": labels}
''',
            "test_CID.py": r"""
import CID_issues as issues


def test_plain_issue_is_triaged():
    assert issues.new_issue("Typo on checkout page")["labels"][0] == "triage"


def test_bug_report_labels():
    issue = issues.new_issue("Checkout crashes on empty cart", extra_labels=["bug"])
    assert issue["labels"] == ["triage", "bug"]
""",
        },
    )
)

# ----------------------------------------------------------------------------------------- resource leaks
T.append(
    dict(
        topic="preview_server_process_leak",
        cls="resource",
        test="test_index_build_leaves_no_child_processes",
        trigger="resource leak through order: after test_preview_server_starts (reversed, shuffled, twice) the docs-preview child process is still running (never stopped), so the leak check multiprocessing.active_children() == [] fails",
        robust="test order, repetition",
        files={
            "CID_preview.py": r'''
"""Docs tooling: a preview server runs in a child process; the search index is built by a worker pool."""
import multiprocessing as mp

CTX = mp.get_context("fork")


def _serve(stop):
    stop.wait(30)  # stands in for the HTTP preview server loop


class PreviewServer:
    def __init__(self):
        self.stop = CTX.Event()
        self.proc = None

    def start(self):
        self.proc = CTX.Process(target=_serve, args=(self.stop,), name="docs-preview", daemon=True)
        self.proc.start()
        return self

    def close(self):
        self.stop.set()
        self.proc.join(10)


def _index_page(page):
    return page, len(page.split())


def build_index(pages, workers=2):
    pool = CTX.Pool(workers)
    try:
        return dict(pool.map(_index_page, pages))
    finally:
        pool.close()
        pool.join()
''',
            "test_CID.py": r"""
import multiprocessing

import pytest

import CID_preview as preview


@pytest.fixture
def server():
    srv = preview.PreviewServer().start()
    yield srv
    srv.close()  #@S


def test_index_build_leaves_no_child_processes():
    index = preview.build_index(["getting started", "api reference guide"])
    assert index == {"getting started": 2, "api reference guide": 3}
    assert multiprocessing.active_children() == []


def test_preview_server_starts(server):
    assert server.proc.is_alive()
    assert server.proc.name == "docs-preview"
""",
        },
    )
)

T.append(
    dict(
        topic="audit_trail_fd_leak",
        cls="resource",
        test="test_export_releases_audit_files",
        trigger="resource leak through order: test_login_is_audited leaves the cached AuditTrail writer (module-level, one per path) and its file handle open: its fixture never calls close_all(); when it runs first (reversed, shuffled, twice) the open-file check of the export test sees a .jsonl file still open in /proc/self/fd",
        robust="test order, repetition",
        files={
            "CID_audit.py": r'''
"""Audit trail appended to a JSON-lines file; the writer keeps the file open between events."""
import json
import os


class AuditTrail:
    def __init__(self, path):
        self.path = path
        self._fh = None

    def record(self, event, **data):
        if self._fh is None:
            self._fh = open(self.path, "a", encoding="utf-8")
        self._fh.write(json.dumps({"event": event, **data}) + "\n")
        self._fh.flush()

    def close(self):
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


_TRAILS = {}


def get_trail(path):
    """One writer per file, shared by all request handlers of the process."""
    path = str(path)
    if path not in _TRAILS:
        _TRAILS[path] = AuditTrail(path)
    return _TRAILS[path]


def close_all():
    for trail in _TRAILS.values():
        trail.close()
    _TRAILS.clear()


def export_events(trail_path, out_path):
    with open(trail_path, encoding="utf-8") as src, open(out_path, "w", encoding="utf-8") as dst:
        for line in src:
            dst.write(json.loads(line)["event"] + "\n")


def open_files(suffix):
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.endswith(suffix):
            found.append(target)
    return found
''',
            "test_CID.py": r"""
import pytest

import CID_audit as audit


def test_export_releases_audit_files(tmp_path):
    trail = tmp_path / "export.jsonl"
    trail.write_text('{"event": "login"}\n{"event": "refund"}\n')
    audit.export_events(trail, tmp_path / "events.txt")
    assert (tmp_path / "events.txt").read_text() == "login\nrefund\n"
    assert audit.open_files(".jsonl") == []


@pytest.fixture
def trails():
    yield audit.get_trail
    audit.close_all()  #@S


def test_login_is_audited(tmp_path, trails):
    trails(tmp_path / "audit.jsonl").record("login", user="ana")
    assert (tmp_path / "audit.jsonl").read_text().count('"login"') == 1
""",
        },
    )
)
