# Order-dependency topics (victims, brittles, self-polluters). Lines ending in "#@F" exist only in the
# flaky twin, "#@S" only in the stable twin. "CID" is replaced by the case id.
T = []

T.append(dict(
    topic="webhook_bus", cls="order", test="test_order_created_delivers_one_webhook",
    trigger="victim: runs after test_audit_listener_receives_events (reversed order, or module run twice in one process); the polluter subscribes to a module-global event bus and never unsubscribes",
    robust="test order, repetition",
    files={
"CID_bus.py": r'''
"""Tiny in-process event bus used by the shop backend."""
_subscribers = {}


def subscribe(event, handler):
    _subscribers.setdefault(event, []).append(handler)


def unsubscribe(event, handler):
    _subscribers.get(event, []).remove(handler)


def publish(event, payload):
    delivered = 0
    for handler in list(_subscribers.get(event, [])):
        handler(payload)
        delivered += 1
    return delivered
''',
"CID_webhooks.py": r'''
import CID_bus as bus


class WebhookDispatcher:
    def __init__(self, url):
        self.url = url
        self.sent = []

    def start(self):
        bus.subscribe("order.created", self._send)

    def stop(self):
        bus.unsubscribe("order.created", self._send)

    def _send(self, payload):
        self.sent.append(("POST", self.url, payload["id"]))
''',
"test_CID.py": r'''
import pytest

import CID_bus as bus
from CID_webhooks import WebhookDispatcher


@pytest.fixture
def dispatcher():
    d = WebhookDispatcher("https://hooks.example.test/orders")
    d.start()
    yield d
    d.stop()


def test_order_created_delivers_one_webhook(dispatcher):
    delivered = bus.publish("order.created", {"id": 7})
    assert delivered == 1
    assert dispatcher.sent == [("POST", "https://hooks.example.test/orders", 7)]


def test_audit_listener_receives_events():
    audit = []
    bus.subscribe("order.created", audit.append)
    bus.publish("order.created", {"id": 1})  #@F
    assert audit == [{"id": 1}]  #@F
    try:  #@S
        bus.publish("order.created", {"id": 1})  #@S
        assert audit == [{"id": 1}]  #@S
    finally:  #@S
        bus.unsubscribe("order.created", audit.append)  #@S
'''}))

T.append(dict(
    topic="feature_flags", cls="order", test="test_express_checkout_skips_cart",
    trigger="brittle: passes only when test_flags_file_loads ran first in the same process (fails alone or in reversed order)",
    robust="test order, running alone",
    files={
"CID_flags.py": r'''
import json

_flags = {}


def load(path):
    with open(path) as fh:
        _flags.update(json.load(fh))


def enabled(name):
    return bool(_flags.get(name, False))
''',
"CID_checkout.py": r'''
import CID_flags as flags


def checkout_steps():
    steps = ["cart", "payment", "confirm"]
    if flags.enabled("express_checkout"):
        steps.remove("cart")
    return steps
''',
"CID_flags.json": '{"express_checkout": true, "dark_mode": false}\n',
"test_CID.py": r'''
import pathlib

import CID_flags as flags
from CID_checkout import checkout_steps

FLAGS_FILE = pathlib.Path(__file__).with_name("CID_flags.json")


def test_flags_file_loads():
    flags.load(FLAGS_FILE)
    assert flags.enabled("express_checkout")
    assert not flags.enabled("dark_mode")


def test_express_checkout_skips_cart():
    flags.load(FLAGS_FILE)  #@S
    assert checkout_steps() == ["payment", "confirm"]
'''}))

T.append(dict(
    topic="template_cache", cls="order", test="test_template_compiled_once_for_repeated_renders",
    trigger="self-polluter: the module-global template cache and its hit/miss stats survive, so a second run in the same process (or a run after test_welcome_mail_mentions_name) sees no miss",
    robust="test order, repetition",
    files={
"CID_templates.py": r'''
import string

_cache = {}
stats = {"hits": 0, "misses": 0}


def render(template_name, source, **context):
    tpl = _cache.get(template_name)
    if tpl is None:
        stats["misses"] += 1
        tpl = _cache[template_name] = string.Template(source)
    else:
        stats["hits"] += 1
    return tpl.substitute(**context)


def reset():
    _cache.clear()
    stats.update(hits=0, misses=0)
''',
"test_CID.py": r'''
import pytest

import CID_templates as templates

WELCOME = "Hello $name, welcome to $shop!"


@pytest.fixture(autouse=True)  #@S
def fresh_template_cache():  #@S
    templates.reset()  #@S
    yield  #@S
    templates.reset()  #@S


def test_template_compiled_once_for_repeated_renders():
    for name in ("ann", "bob", "cy"):
        templates.render("welcome", WELCOME, name=name, shop="Acme")
    assert templates.stats == {"hits": 2, "misses": 1}


def test_welcome_mail_mentions_name():
    text = templates.render("welcome", WELCOME, name="dora", shop="Acme")
    assert "dora" in text
'''}))

T.append(dict(
    topic="currency_env", cls="order", test="test_price_formatted_in_default_currency",
    trigger="victim: fails after test_price_formatted_in_euro (reversed order or module run twice); the polluter writes os.environ['SHOP_CURRENCY'] directly and never restores it",
    robust="test order, repetition",
    files={
"CID_money.py": r'''
import os

SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3"}


def format_price(amount):
    currency = os.environ.get("SHOP_CURRENCY", "USD")
    return f"{SYMBOLS[currency]}{amount:,.2f}"
''',
"test_CID.py": r'''
import os

from CID_money import format_price


def test_price_formatted_in_default_currency():
    assert format_price(1234.5) == "$1,234.50"


def test_price_formatted_in_euro(monkeypatch):
    os.environ["SHOP_CURRENCY"] = "EUR"  #@F
    monkeypatch.setenv("SHOP_CURRENCY", "EUR")  #@S
    assert format_price(3) == "\u20ac3.00"
'''}))

T.append(dict(
    topic="retry_mock_patch", cls="order", test="test_default_backoff_schedule",
    trigger="victim: fails after test_single_retry_when_configured (reversed order or module run twice); the polluter calls mock.patch.object(...).start() and never stops the patcher",
    robust="test order, repetition",
    files={
"CID_config.py": r'''
HTTP_TIMEOUT = 8.0
MAX_RETRIES = 3
''',
"CID_client.py": r'''
import CID_config as config


def backoff_schedule():
    """Seconds to wait before each retry of a failed API call."""
    return [min(config.HTTP_TIMEOUT, 2 ** i) for i in range(config.MAX_RETRIES)]
''',
"test_CID.py": r'''
from unittest import mock

import CID_config as config
from CID_client import backoff_schedule


def test_default_backoff_schedule():
    assert backoff_schedule() == [1, 2, 4]


def test_single_retry_when_configured(request):
    patcher = mock.patch.object(config, "MAX_RETRIES", 1)
    patcher.start()
    request.addfinalizer(patcher.stop)  #@S
    assert backoff_schedule() == [1]
'''}))

T.append(dict(
    topic="singleton_conn", cls="order", test="test_insert_user_and_count",
    trigger="victim: fails after test_shutdown_closes_connection (reversed order or module run twice); close() closes the module-global sqlite connection but keeps the closed object cached",
    robust="test order, repetition",
    files={
"CID_db.py": r'''
import sqlite3

_conn = None


def get_conn():
    global _conn
    if _conn is None:
        _conn = sqlite3.connect(":memory:")
        _conn.execute("create table users (id integer primary key, name text not null)")
    return _conn


def close():
    global _conn
    if _conn is not None:
        _conn.close()
        _conn = None  #@S
''',
"test_CID.py": r'''
import CID_db as db


def test_insert_user_and_count():
    conn = db.get_conn()
    conn.execute("insert into users (name) values (?)", ("ada",))
    (count,) = conn.execute("select count(*) from users where name = 'ada'").fetchone()
    assert count >= 1


def test_shutdown_closes_connection():
    db.get_conn()
    db.close()
'''}))

T.append(dict(
    topic="socket_default_timeout", cls="order", test="test_slow_backend_answer_is_received",
    trigger="victim: fails after test_fast_fail_mode_sets_short_timeout (reversed order or module run twice); the polluter sets socket.setdefaulttimeout(0.005) process-wide and never restores it",
    robust="test order, repetition",
    files={
"CID_net.py": r'''
import socket
import threading
import time


def start_upper_server(delay):
    """One-shot local TCP server that answers with the upper-cased request after `delay` s."""
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)

    def serve():
        try:
            conn, _ = srv.accept()
            with conn:
                data = conn.recv(1024)
                time.sleep(delay)
                conn.sendall(data.upper())
        except OSError:
            pass
        finally:
            srv.close()

    threading.Thread(target=serve, daemon=True).start()
    return srv.getsockname()[1]


def configure(fast_fail):
    if fast_fail:
        socket.setdefaulttimeout(0.005)


def call(port, message):
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(message)
        return sock.recv(1024)
''',
"test_CID.py": r'''
import socket

import CID_net as net


def test_slow_backend_answer_is_received():
    port = net.start_upper_server(delay=0.05)
    assert net.call(port, b"status") == b"STATUS"


def test_fast_fail_mode_sets_short_timeout():
    old = socket.getdefaulttimeout()  #@S
    try:  #@S
        net.configure(fast_fail=True)  #@S
        assert socket.getdefaulttimeout() == 0.005  #@S
    finally:  #@S
        socket.setdefaulttimeout(old)  #@S
    net.configure(fast_fail=True)  #@F
    assert socket.getdefaulttimeout() == 0.005  #@F
'''}))

T.append(dict(
    topic="singledispatch_registry", cls="order", test="test_datetime_is_rejected_without_adapter",
    trigger="victim: fails after test_datetime_adapter_serializes_iso (reversed order or module run twice); the polluter registers a datetime handler on the module-global singledispatch function",
    robust="test order, repetition",
    files={
"CID_serialize.py": r'''
import datetime
import decimal
import functools
import json


@functools.singledispatch
def to_jsonable(obj):
    raise TypeError(f"cannot serialize {type(obj).__name__}")


@to_jsonable.register
def _(obj: decimal.Decimal):
    return str(obj)


def dumps(data, default=to_jsonable):
    return json.dumps(data, default=default, sort_keys=True)
''',
"test_CID.py": r'''
import datetime
import decimal

import pytest

from CID_serialize import dumps, to_jsonable


def test_datetime_is_rejected_without_adapter():
    assert dumps({"total": decimal.Decimal("9.50")}) == '{"total": "9.50"}'
    with pytest.raises(TypeError):
        dumps({"at": datetime.datetime(2024, 1, 1, 12, 0)})


def test_datetime_adapter_serializes_iso():
    to_jsonable.register(datetime.datetime, lambda d: d.isoformat())  #@F
    default = to_jsonable  #@F
    def default(o):  #@S
        return o.isoformat() if isinstance(o, datetime.datetime) else to_jsonable(o)  #@S
    out = dumps({"at": datetime.datetime(2024, 1, 1, 12, 0)}, default=default)
    assert out == '{"at": "2024-01-01T12:00:00"}'
'''}))

T.append(dict(
    topic="order_tags", cls="order", test="test_new_order_has_only_its_own_tags",
    trigger="self-polluter: Order.tags is a class-level list shared by all instances, so a second run in the same process (or a run after test_bulk_order_is_tagged) starts with leftover tags",
    robust="test order, repetition",
    files={
"CID_orders.py": r'''
class Order:
    tags = []  #@F

    def __init__(self, sku, qty):
        self.sku = sku
        self.qty = qty
        self.tags = []  #@S

    def tag(self, label):
        if label not in self.tags:
            self.tags.append(label)
        return self
''',
"test_CID.py": r'''
from CID_orders import Order


def test_new_order_has_only_its_own_tags():
    order = Order("SKU-1", 1)
    assert order.tags == []
    order.tag("gift")
    assert order.tags == ["gift"]


def test_bulk_order_is_tagged():
    order = Order("SKU-2", 500)
    if order.qty >= 100:
        order.tag("bulk")
    assert "bulk" in order.tags
'''}))

T.append(dict(
    topic="report_export", cls="order", test="test_summary_of_latest_export",
    trigger="brittle: reads the CSV that test_export_writes_csv wrote into a per-process export dir; fails alone or in reversed order",
    robust="test order, running alone",
    files={
"CID_export.py": r'''
import csv
import os
import tempfile

EXPORT_DIR = tempfile.mkdtemp(prefix="CID-exports-")


def export_sales(rows):
    path = os.path.join(EXPORT_DIR, "sales.csv")
    with open(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=["sku", "qty", "price"])
        writer.writeheader()
        writer.writerows(rows)
    return path


def latest_export():
    return os.path.join(EXPORT_DIR, "sales.csv")


def summarize(path):
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    return {"lines": len(rows), "revenue": sum(int(r["qty"]) * float(r["price"]) for r in rows)}
''',
"test_CID.py": r'''
import os

from CID_export import export_sales, latest_export, summarize

ROWS = [
    {"sku": "A-1", "qty": 2, "price": "10.00"},
    {"sku": "B-7", "qty": 1, "price": "22.00"},
]


def test_export_writes_csv():
    path = export_sales(ROWS)
    assert os.path.getsize(path) > 0


def test_summary_of_latest_export():
    export_sales(ROWS)  #@S
    assert summarize(latest_export()) == {"lines": 2, "revenue": 42.0}
'''}))

T.append(dict(
    topic="schema_migrations", cls="order", test="test_fresh_database_gets_all_migrations",
    trigger="self-polluter: applied migrations are remembered in a module-global list instead of in the database, so a second run in the same process (or a run after test_migrate_is_idempotent) applies nothing",
    robust="test order, repetition",
    files={
"CID_migrate.py": r'''
MIGRATIONS = ["0001_create_users", "0002_add_email", "0003_index_email"]
_applied = []


class Database:
    def __init__(self):
        self.applied = []
        self.schema = []


def migrate(db):
    ran = []
    for name in MIGRATIONS:
        if name in _applied:  #@F
        if name in db.applied:  #@S
            continue
        db.schema.append(name.split("_", 1)[1])
        _applied.append(name)  #@F
        db.applied.append(name)  #@S
        ran.append(name)
    return ran
''',
"test_CID.py": r'''
from CID_migrate import MIGRATIONS, Database, migrate


def test_fresh_database_gets_all_migrations():
    db = Database()
    assert migrate(db) == MIGRATIONS
    assert db.schema == ["create_users", "add_email", "index_email"]


def test_migrate_is_idempotent():
    db = Database()
    migrate(db)
    assert migrate(db) == []
'''}))

T.append(dict(
    topic="upload_umask", cls="order", test="test_uploaded_file_is_world_readable",
    trigger="victim: fails after test_hardened_process_creates_private_files (reversed order or module run twice); the polluter sets os.umask(0o077) and never restores it",
    robust="test order, repetition",
    files={
"CID_storage.py": r'''
import os


def save_upload(directory, name, data):
    path = os.path.join(directory, name)
    with open(path, "wb") as fh:
        fh.write(data)
    return path


def harden_process():
    """Make every file this worker creates private. Returns the previous umask."""
    return os.umask(0o077)
''',
"test_CID.py": r'''
import os
import stat

from CID_storage import harden_process, save_upload


def test_uploaded_file_is_world_readable(tmp_path):
    path = save_upload(tmp_path, "avatar.png", b"\x89PNG")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o644


def test_hardened_process_creates_private_files(tmp_path):
    previous = harden_process()
    try:  #@S
        path = save_upload(tmp_path, "secret.key", b"k")  #@S
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  #@S
    finally:  #@S
        os.umask(previous)  #@S
    path = save_upload(tmp_path, "secret.key", b"k")  #@F
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  #@F
'''}))

T.append(dict(
    topic="markdown_backend_stub", cls="order", test="test_headings_rendered_by_fast_backend",
    trigger="victim: fails after test_fallback_when_backend_missing (reversed order or module run twice); the polluter puts None into sys.modules for the backend and never removes it",
    robust="test order, repetition",
    files={
"CID_fastmd.py": r'''
def convert(text):
    out = []
    for line in text.splitlines():
        if line.startswith("# "):
            out.append(f"<h1>{line[2:]}</h1>")
        elif line:
            out.append(f"<p>{line}</p>")
    return "".join(out)
''',
"CID_render.py": r'''
def render_markdown(text):
    try:
        import CID_fastmd as backend
    except ImportError:
        return "<pre>" + text + "</pre>"
    return backend.convert(text)
''',
"test_CID.py": r'''
import sys

from CID_render import render_markdown


def test_headings_rendered_by_fast_backend():
    assert render_markdown("# Release notes\nfixed bugs") == "<h1>Release notes</h1><p>fixed bugs</p>"


def test_fallback_when_backend_missing(monkeypatch):
    sys.modules["CID_fastmd"] = None  #@F
    monkeypatch.setitem(sys.modules, "CID_fastmd", None)  #@S
    assert render_markdown("# x") == "<pre># x</pre>"
'''}))

T.append(dict(
    topic="recursion_guard", cls="order", test="test_depth_of_deeply_nested_config",
    trigger="victim: fails after test_stack_guard_limits_recursion (reversed order or module run twice); the polluter lowers sys.setrecursionlimit and never restores it",
    robust="test order, repetition",
    files={
"CID_tree.py": r'''
import sys


def depth(node):
    return 1 + max((depth(child) for child in node.get("children", [])), default=0)


def nested(levels):
    node = {"name": "leaf"}
    for i in range(levels - 1):
        node = {"name": f"n{i}", "children": [node]}
    return node


def guard_stack(limit):
    """Protect request workers against malicious deeply nested payloads. Returns the old limit."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    return old
''',
"test_CID.py": r'''
import sys

from CID_tree import depth, guard_stack, nested


def test_depth_of_deeply_nested_config():
    assert depth(nested(300)) == 300


def test_stack_guard_limits_recursion():
    old = guard_stack(260)
    try:  #@S
        assert sys.getrecursionlimit() == 260  #@S
        assert depth(nested(5)) == 5  #@S
    finally:  #@S
        sys.setrecursionlimit(old)  #@S
    assert sys.getrecursionlimit() == 260  #@F
    assert depth(nested(5)) == 5  #@F
'''}))
