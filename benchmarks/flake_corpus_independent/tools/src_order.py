# Order-dependence and isolation cases: (topic, meta, flaky_src, stable_src, extra files)
CASES = []

def add(topic, cls, trigger, judged, notes_f, notes_s, flaky, stable, extra=None, modes="order", trigger_env=None):
    CASES.append(dict(topic=topic, cls=cls, trigger=trigger, judged=judged, notes_f=notes_f,
                      notes_s=notes_s, flaky=flaky, stable=stable, extra=extra or {}, modes=modes,
                      trigger_env=trigger_env))

add("format_registry", "order", "runs after test_register_custom_format (victim of module-global pollution)",
    "test_available_formats_default",
    "Polluter registers into a module-level dict and never removes the entry; the victim asserts the default set.",
    "Same registry, but the registering test uses monkeypatch.setitem so the entry is removed at teardown.",
'''
_FORMATS = {"json": "application/json"}


def register_format(name, mime):
    _FORMATS[name] = mime


def available_formats():
    return sorted(_FORMATS)


def test_register_custom_format():
    register_format("yaml", "application/yaml")
    assert "yaml" in available_formats()


def test_available_formats_default():
    assert available_formats() == ["json"]
''',
'''
_FORMATS = {"json": "application/json"}


def available_formats():
    return sorted(_FORMATS)


def test_register_custom_format(monkeypatch):
    monkeypatch.setitem(_FORMATS, "yaml", "application/yaml")
    assert "yaml" in available_formats()


def test_available_formats_default():
    assert available_formats() == ["json"]
''')

add("app_env_config", "order", "runs after test_debug_mode_from_env (env var leaked via os.environ)",
    "test_defaults_are_production",
    "Polluter writes os.environ directly; the victim reads config defaults and sees APP_DEBUG=1.",
    "Same config loader; the env-setting test uses monkeypatch.setenv, restored at teardown.",
'''
import os


def load_config():
    return {
        "debug": os.environ.get("APP_DEBUG", "0") == "1",
        "workers": int(os.environ.get("APP_WORKERS", "4")),
    }


def test_debug_mode_from_env():
    os.environ["APP_DEBUG"] = "1"
    assert load_config()["debug"] is True


def test_defaults_are_production():
    cfg = load_config()
    assert cfg == {"debug": False, "workers": 4}
''',
'''
import os


def load_config():
    return {
        "debug": os.environ.get("APP_DEBUG", "0") == "1",
        "workers": int(os.environ.get("APP_WORKERS", "4")),
    }


def test_debug_mode_from_env(monkeypatch):
    monkeypatch.setenv("APP_DEBUG", "1")
    assert load_config()["debug"] is True


def test_defaults_are_production(monkeypatch):
    monkeypatch.delenv("APP_DEBUG", raising=False)
    monkeypatch.delenv("APP_WORKERS", raising=False)
    cfg = load_config()
    assert cfg == {"debug": False, "workers": 4}
''')

FIX = {"fixtures/users.json": '[{"name": "ada", "role": "admin"}, {"name": "bob", "role": "viewer"}]\n'}
add("fixture_loader_cwd", "order", "runs after test_export_relative_path (os.chdir not restored)",
    "test_load_users_fixture",
    "Polluter chdirs into tmp_path and never changes back; the victim opens a cwd-relative fixtures/ path.",
    "The exporting test uses monkeypatch.chdir; the loader resolves fixtures relative to the module file.",
'''
import json
import os


def load_fixture(name):
    with open(os.path.join("fixtures", name)) as fh:
        return json.load(fh)


def export(rows, path):
    with open(path, "w") as fh:
        json.dump(rows, fh)


def test_export_relative_path(tmp_path):
    os.chdir(tmp_path)
    export([{"name": "x"}], "out.json")
    assert os.path.exists("out.json")


def test_load_users_fixture():
    users = load_fixture("users.json")
    assert [u["name"] for u in users] == ["ada", "bob"]
''',
'''
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def load_fixture(name):
    with open(os.path.join(HERE, "fixtures", name)) as fh:
        return json.load(fh)


def export(rows, path):
    with open(path, "w") as fh:
        json.dump(rows, fh)


def test_export_relative_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    export([{"name": "x"}], "out.json")
    assert os.path.exists("out.json")


def test_load_users_fixture():
    users = load_fixture("users.json")
    assert [u["name"] for u in users] == ["ada", "bob"]
''', extra=FIX)

add("settings_cache", "order", "runs after test_region_override (functools.lru_cache keeps overridden settings)",
    "test_default_region",
    "get_settings() is lru_cached; the override test caches eu-west-1 and monkeypatch restores only the env var.",
    "Same cached settings, with an autouse fixture calling get_settings.cache_clear() around each test.",
'''
import functools
import os


@functools.lru_cache(maxsize=None)
def get_settings():
    return {"region": os.environ.get("APP_REGION", "us-east-1"), "retries": 3}


def test_region_override(monkeypatch):
    monkeypatch.setenv("APP_REGION", "eu-west-1")
    assert get_settings()["region"] == "eu-west-1"


def test_default_region():
    assert get_settings()["region"] == "us-east-1"
''',
'''
import functools
import os

import pytest


@functools.lru_cache(maxsize=None)
def get_settings():
    return {"region": os.environ.get("APP_REGION", "us-east-1"), "retries": 3}


@pytest.fixture(autouse=True)
def _fresh_settings():
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_region_override(monkeypatch):
    monkeypatch.setenv("APP_REGION", "eu-west-1")
    assert get_settings()["region"] == "eu-west-1"


def test_default_region(monkeypatch):
    monkeypatch.delenv("APP_REGION", raising=False)
    assert get_settings()["region"] == "us-east-1"
''')

add("csv_exporter_delimiter", "order", "runs after test_excel_locale_export (class attribute mutated)",
    "test_render_default",
    "Polluter assigns Exporter.delimiter on the class, changing every later instance.",
    "The locale test sets the delimiter on its own instance only.",
'''
class Exporter:
    delimiter = ","

    def __init__(self, rows):
        self.rows = rows

    def render(self):
        return "\\n".join(self.delimiter.join(str(c) for c in row) for row in self.rows)


def test_excel_locale_export():
    Exporter.delimiter = ";"
    assert Exporter([[1, 2]]).render() == "1;2"


def test_render_default():
    assert Exporter([[1, 2], [3, 4]]).render() == "1,2\\n3,4"
''',
'''
class Exporter:
    delimiter = ","

    def __init__(self, rows, delimiter=None):
        self.rows = rows
        if delimiter is not None:
            self.delimiter = delimiter

    def render(self):
        return "\\n".join(self.delimiter.join(str(c) for c in row) for row in self.rows)


def test_excel_locale_export():
    assert Exporter([[1, 2]], delimiter=";").render() == "1;2"


def test_render_default():
    assert Exporter([[1, 2], [3, 4]]).render() == "1,2\\n3,4"
''')

add("money_rounding", "order", "runs after test_low_precision_mode (decimal context precision leaked)",
    "test_add_cent",
    "Polluter sets decimal.getcontext().prec = 4 globally for the thread; the victim's sum is rounded to 1235.",
    "The low-precision test uses decimal.localcontext(), so the thread context is untouched.",
'''
import decimal
from decimal import Decimal


def add_amounts(*amounts):
    total = Decimal(0)
    for a in amounts:
        total += Decimal(a)
    return total


def test_low_precision_mode():
    decimal.getcontext().prec = 4
    assert add_amounts("1.0001", "2") == Decimal("3.000")


def test_add_cent():
    assert add_amounts("1234.56", "0.01") == Decimal("1234.57")
''',
'''
import decimal
from decimal import Decimal


def add_amounts(*amounts):
    total = Decimal(0)
    for a in amounts:
        total += Decimal(a)
    return total


def test_low_precision_mode():
    with decimal.localcontext() as ctx:
        ctx.prec = 4
        assert add_amounts("1.0001", "2") == Decimal("3.000")


def test_add_cent():
    assert add_amounts("1234.56", "0.01") == Decimal("1234.57")
''')

add("billing_logger_level", "order", "runs after test_quiet_billing_logs (logger level set without restore)",
    "test_charge_is_logged",
    "Polluter calls logging.getLogger('billing').setLevel(ERROR); caplog.at_level() only adjusts the root logger.",
    "The quiet test uses caplog.set_level(..., logger='billing'), which pytest restores.",
'''
import logging

log = logging.getLogger("billing")


def charge(customer, cents):
    log.info("charged %s %d", customer, cents)
    return cents


def test_quiet_billing_logs(caplog):
    logging.getLogger("billing").setLevel(logging.ERROR)
    charge("acme", 100)
    assert "charged" not in caplog.text


def test_charge_is_logged(caplog):
    with caplog.at_level(logging.INFO):
        charge("acme", 250)
    assert "charged acme 250" in caplog.text
''',
'''
import logging

log = logging.getLogger("billing")


def charge(customer, cents):
    log.info("charged %s %d", customer, cents)
    return cents


def test_quiet_billing_logs(caplog):
    caplog.set_level(logging.ERROR, logger="billing")
    charge("acme", 100)
    assert "charged" not in caplog.text


def test_charge_is_logged(caplog):
    caplog.set_level(logging.INFO, logger="billing")
    charge("acme", 250)
    assert "charged acme 250" in caplog.text
''')

# ---- isolation / brittle (fail when run alone) ----
add("inventory_db", "isolation", "run alone or before test_create_schema (needs schema from an earlier test)",
    "test_restock",
    "Module-level sqlite connection; schema and row are created by the previous test (brittle).",
    "Each test gets a fresh in-memory database from a fixture.",
'''
import sqlite3

_conn = sqlite3.connect(":memory:")


def test_create_schema():
    _conn.execute("CREATE TABLE items (sku TEXT PRIMARY KEY, qty INTEGER)")
    _conn.execute("INSERT INTO items VALUES ('A-1', 5)")
    assert _conn.execute("SELECT COUNT(*) FROM items").fetchone() == (1,)


def test_restock():
    _conn.execute("UPDATE items SET qty = qty + 10 WHERE sku = 'A-1'")
    (qty,) = _conn.execute("SELECT qty FROM items WHERE sku = 'A-1'").fetchone()
    assert qty == 15
''',
'''
import sqlite3

import pytest


@pytest.fixture
def conn():
    c = sqlite3.connect(":memory:")
    c.execute("CREATE TABLE items (sku TEXT PRIMARY KEY, qty INTEGER)")
    c.execute("INSERT INTO items VALUES ('A-1', 5)")
    yield c
    c.close()


def test_create_schema(conn):
    assert conn.execute("SELECT COUNT(*) FROM items").fetchone() == (1,)


def test_restock(conn):
    conn.execute("UPDATE items SET qty = qty + 10 WHERE sku = 'A-1'")
    (qty,) = conn.execute("SELECT qty FROM items WHERE sku = 'A-1'").fetchone()
    assert qty == 15
''')

add("api_session", "isolation", "run alone or before test_login (depends on login state from an earlier test)",
    "test_fetch_profile",
    "test_login stores a token in a module-level client; test_fetch_profile silently relies on it.",
    "The profile test logs in through its own fixture.",
'''
_client = {"token": None}


def login(user, password):
    _client["token"] = "tok-" + user


def fetch_profile():
    if _client["token"] is None:
        raise PermissionError("not logged in")
    return {"user": _client["token"][4:]}


def test_login():
    login("alice", "s3cret")
    assert _client["token"] == "tok-alice"


def test_fetch_profile():
    assert fetch_profile()["user"] == "alice"
''',
'''
import pytest

_client = {"token": None}


def login(user, password):
    _client["token"] = "tok-" + user


def fetch_profile():
    if _client["token"] is None:
        raise PermissionError("not logged in")
    return {"user": _client["token"][4:]}


@pytest.fixture
def logged_in(monkeypatch):
    monkeypatch.setitem(_client, "token", None)
    login("alice", "s3cret")
    yield


def test_login(monkeypatch):
    monkeypatch.setitem(_client, "token", None)
    login("alice", "s3cret")
    assert _client["token"] == "tok-alice"


def test_fetch_profile(logged_in):
    assert fetch_profile()["user"] == "alice"
''')

PLUG = {"plugins/textfilters.py": 'def upper(s):\n    return s.upper()\n\n\ndef strip(s):\n    return s.strip()\n'}
add("plugin_path", "isolation", "run alone or before test_plugin_dir_on_path (sys.path set up by an earlier test)",
    "test_upper_filter",
    "The first test prepends plugins/ to sys.path; the judged test imports a plugin module and only works after it.",
    "The judged test prepends the plugin dir itself with monkeypatch.syspath_prepend.",
'''
import os
import sys

PLUGIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins")


def test_plugin_dir_on_path():
    if PLUGIN_DIR not in sys.path:
        sys.path.insert(0, PLUGIN_DIR)
    assert os.path.isdir(PLUGIN_DIR)


def test_upper_filter():
    import textfilters

    assert textfilters.upper(" ab ") == " AB "
''',
'''
import os

PLUGIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins")


def test_plugin_dir_on_path():
    assert os.path.isdir(PLUGIN_DIR)


def test_upper_filter(monkeypatch):
    monkeypatch.syspath_prepend(PLUGIN_DIR)
    import textfilters

    assert textfilters.upper(" ab ") == " AB "
''', extra=PLUG)

# ---- self-polluters (fail when run twice in one process) ----
add("event_handlers", "order", "run twice in one process (self-polluter: handler stays registered)",
    "test_register_and_emit",
    "Registers a handler in a module-level dict that rejects duplicates; a second run in the same process raises.",
    "An autouse fixture clears the handler table before and after each test.",
'''
_handlers = {}


def on(event):
    def deco(fn):
        if event in _handlers:
            raise ValueError(f"handler already registered for {event!r}")
        _handlers[event] = fn
        return fn

    return deco


def emit(event, payload):
    return _handlers[event](payload)


def test_register_and_emit():
    @on("user.created")
    def greet(payload):
        return f"hello {payload['name']}"

    assert emit("user.created", {"name": "ada"}) == "hello ada"
''',
'''
import pytest

_handlers = {}


def on(event):
    def deco(fn):
        if event in _handlers:
            raise ValueError(f"handler already registered for {event!r}")
        _handlers[event] = fn
        return fn

    return deco


def emit(event, payload):
    return _handlers[event](payload)


@pytest.fixture(autouse=True)
def _clean_handlers():
    _handlers.clear()
    yield
    _handlers.clear()


def test_register_and_emit():
    @on("user.created")
    def greet(payload):
        return f"hello {payload['name']}"

    assert emit("user.created", {"name": "ada"}) == "hello ada"
''')

add("tag_builder", "order", "run twice in one process (mutable default argument accumulates)",
    "test_collect_tags",
    "collect_tags uses a mutable default list; the second call in the same process sees the first call's tags.",
    "Same API with tags=None and a fresh list per call.",
'''
def collect_tags(item, tags=[]):
    tags.extend(t.strip().lower() for t in item.get("tags", ()))
    return tags


def test_collect_tags():
    assert collect_tags({"tags": ["db", "slow"]}) == ["db", "slow"]
    assert collect_tags({"tags": ["api"]}, ["x"]) == ["x", "api"]
''',
'''
def collect_tags(item, tags=None):
    tags = [] if tags is None else list(tags)
    tags.extend(t.strip().lower() for t in item.get("tags", ()))
    return tags


def test_collect_tags():
    assert collect_tags({"tags": ["db", "slow"]}) == ["db", "slow"]
    assert collect_tags({"tags": ["api"]}, ["x"]) == ["x", "api"]
''')

add("request_ids", "order", "reversed order or run twice in one process (module-level id counter)",
    "test_first_request_id",
    "Request ids come from a module-level itertools.count; the test assumes it is the first caller.",
    "The test asserts ids relative to one another, not absolute values.",
'''
import itertools

_ids = itertools.count(1)


def new_request(path):
    return {"id": next(_ids), "path": path}


def test_first_request_id():
    assert new_request("/health") == {"id": 1, "path": "/health"}


def test_request_ids_increase():
    a = new_request("/a")
    b = new_request("/b")
    assert b["id"] == a["id"] + 1
''',
'''
import itertools

_ids = itertools.count(1)


def new_request(path):
    return {"id": next(_ids), "path": path}


def test_first_request_id():
    req = new_request("/health")
    assert req["path"] == "/health"
    assert isinstance(req["id"], int) and req["id"] >= 1


def test_request_ids_increase():
    a = new_request("/a")
    b = new_request("/b")
    assert b["id"] == a["id"] + 1
''')
