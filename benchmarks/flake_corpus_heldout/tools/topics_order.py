# Topic definitions: order-dependency family (victims, brittles, polluters, self-polluters).
TOPICS = []
def T(**kw): TOPICS.append(kw)

T(topic="plugin_registry", cls="order", node="test_default_exporters_only",
  trigger="victim: runs after test_custom_exporter_can_be_registered (reversed order, or selection repeated in one process); the polluter registers 'xml' in a module-global registry and never removes it",
  robust="test order, repetition",
  common={"appmod.py": '''
import json

_EXPORTERS = {
    "csv": lambda rows: "\\n".join(",".join(map(str, r)) for r in rows),
    "json": lambda rows: json.dumps(rows),
}


def register(name, fn):
    _EXPORTERS[name] = fn


def unregister(name):
    _EXPORTERS.pop(name, None)


def registered_exporters():
    return sorted(_EXPORTERS)


def export(name, rows):
    return _EXPORTERS[name](rows)
'''},
  flaky={"TEST": '''
from appmod import export, register, registered_exporters


def test_default_exporters_only():
    assert registered_exporters() == ["csv", "json"]


def test_custom_exporter_can_be_registered():
    register("xml", lambda rows: "<rows/>")
    assert "xml" in registered_exporters()
    assert export("xml", []) == "<rows/>"
'''},
  stable={"TEST": '''
import pytest

from appmod import export, register, registered_exporters, unregister


@pytest.fixture
def xml_exporter():
    register("xml", lambda rows: "<rows/>")
    yield "xml"
    unregister("xml")


def test_default_exporters_only():
    assert registered_exporters() == ["csv", "json"]


def test_custom_exporter_can_be_registered(xml_exporter):
    assert xml_exporter in registered_exporters()
    assert export(xml_exporter, []) == "<rows/>"
'''})

T(topic="settings_brittle", cls="order", node="test_retry_policy_uses_configured_retries",
  trigger="brittle: passes only when test_load_settings_from_file ran first in the same process (fails alone or in reversed order)",
  robust="test order, running alone",
  common={"appmod.py": '''
import configparser
from dataclasses import dataclass

settings = {}


def load_settings(path):
    parser = configparser.ConfigParser()
    parser.read(path)
    settings.update(parser["app"])


@dataclass
class RetryPolicy:
    max_attempts: int
    backoff: float


def retry_policy():
    return RetryPolicy(int(settings.get("retries", 3)), float(settings.get("backoff", 0.5)))
'''},
  flaky={"TEST": '''
from appmod import load_settings, retry_policy, settings


def test_load_settings_from_file(tmp_path):
    ini = tmp_path / "app.ini"
    ini.write_text("[app]\\nname = billing\\nretries = 5\\n")
    load_settings(ini)
    assert settings["name"] == "billing"


def test_retry_policy_uses_configured_retries():
    assert retry_policy().max_attempts == 5
'''},
  stable={"TEST": '''
import pytest

from appmod import load_settings, retry_policy, settings


@pytest.fixture
def configured(tmp_path):
    ini = tmp_path / "app.ini"
    ini.write_text("[app]\\nname = billing\\nretries = 5\\n")
    load_settings(ini)
    yield settings
    settings.clear()


def test_load_settings_from_file(configured):
    assert configured["name"] == "billing"


def test_retry_policy_uses_configured_retries(configured):
    assert retry_policy().max_attempts == 5
'''})

T(topic="rate_memo", cls="order", node="test_rate_is_fetched_once",
  trigger="self-polluter: lru_cache survives between runs, so a second run in the same process (or after test_convert_eur) sees zero fetches",
  robust="repetition in one process, test order",
  common={"appmod.py": '''
import functools

FETCHES = {"n": 0}
_RATES = {"EUR": 1.08, "GBP": 1.27, "JPY": 0.0067}


@functools.lru_cache(maxsize=None)
def exchange_rate(currency):
    FETCHES["n"] += 1
    return _RATES[currency]


def convert(amount, currency):
    return round(amount * exchange_rate(currency), 2)
'''},
  flaky={"TEST": '''
from appmod import FETCHES, convert, exchange_rate


def test_rate_is_fetched_once():
    FETCHES["n"] = 0
    exchange_rate("EUR")
    exchange_rate("EUR")
    assert FETCHES["n"] == 1


def test_convert_eur():
    assert convert(100, "EUR") == 108.0
'''},
  stable={"TEST": '''
import pytest

from appmod import FETCHES, convert, exchange_rate


@pytest.fixture(autouse=True)
def fresh_rate_cache():
    exchange_rate.cache_clear()
    FETCHES["n"] = 0
    yield
    exchange_rate.cache_clear()


def test_rate_is_fetched_once():
    exchange_rate("EUR")
    exchange_rate("EUR")
    assert FETCHES["n"] == 1


def test_convert_eur():
    assert convert(100, "EUR") == 108.0
'''})

T(topic="env_mode", cls="order", node="test_default_mode_is_production",
  trigger="victim: test_debug_mode_enables_verbose_logs writes os.environ directly and never restores it (reversed order or repeated selection)",
  robust="test order, repetition",
  common={"appmod.py": '''
import os


def current_mode():
    return os.environ.get("BILLING_MODE", "production")


def log_level():
    return "DEBUG" if current_mode() == "debug" else "WARNING"
'''},
  flaky={"TEST": '''
import os

from appmod import current_mode, log_level


def test_default_mode_is_production():
    assert current_mode() == "production"
    assert log_level() == "WARNING"


def test_debug_mode_enables_verbose_logs():
    os.environ["BILLING_MODE"] = "debug"
    assert log_level() == "DEBUG"
'''},
  stable={"TEST": '''
import os

import pytest

from appmod import current_mode, log_level


@pytest.fixture(autouse=True)
def no_mode_override(monkeypatch):
    monkeypatch.delenv("BILLING_MODE", raising=False)


def test_default_mode_is_production():
    assert current_mode() == "production"
    assert log_level() == "WARNING"


def test_debug_mode_enables_verbose_logs(monkeypatch):
    monkeypatch.setenv("BILLING_MODE", "debug")
    assert log_level() == "DEBUG"
'''})

T(topic="cwd_export", cls="order", node="test_reads_seed_users",
  trigger="victim: test_export_into_workdir does os.chdir(tmp_path) without restoring; the victim opens data/users.csv relative to cwd (reversed order, repetition, or pytest started from another directory)",
  robust="test order, repetition, invocation directory",
  common={"data/users.csv": "id,name\n1,ada\n2,grace\n", "appmod.py": '''
import csv
import os


def read_users(path):
    with open(path, newline="") as fh:
        return [row["name"] for row in csv.DictReader(fh)]


def export_users(names, out_name="export.csv"):
    with open(out_name, "w") as fh:
        fh.write("name\\n" + "\\n".join(names) + "\\n")
    return os.path.abspath(out_name)
'''},
  flaky={"TEST": '''
import os

from appmod import export_users, read_users


def test_reads_seed_users():
    assert read_users(os.path.join("data", "users.csv")) == ["ada", "grace"]


def test_export_into_workdir(tmp_path):
    os.chdir(tmp_path)
    out = export_users(["ada"])
    assert os.path.dirname(out) == str(tmp_path)
'''},
  stable={"TEST": '''
import os
from pathlib import Path

from appmod import export_users, read_users

HERE = Path(__file__).resolve().parent


def test_reads_seed_users():
    assert read_users(HERE / "data" / "users.csv") == ["ada", "grace"]


def test_export_into_workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = export_users(["ada"])
    assert os.path.dirname(out) == str(tmp_path)
'''})

T(topic="cart_class_attr", cls="order", node="TestCart::test_a_new_cart_is_empty",
  trigger="victim: Cart.items is a class attribute shared by all instances; fails after test_b_add_items (reversed order or repeated selection)",
  robust="test order, repetition",
  common={},
  flaky={"TEST": '''
import unittest


class Cart:
    items = []

    def add(self, sku, qty=1):
        self.items.append((sku, qty))

    def total_quantity(self):
        return sum(q for _, q in self.items)


class TestCart(unittest.TestCase):
    def test_a_new_cart_is_empty(self):
        self.assertEqual(Cart().total_quantity(), 0)

    def test_b_add_items(self):
        cart = Cart()
        cart.add("SKU-1", 2)
        self.assertGreaterEqual(cart.total_quantity(), 2)
'''},
  stable={"TEST": '''
import unittest


class Cart:
    def __init__(self):
        self.items = []

    def add(self, sku, qty=1):
        self.items.append((sku, qty))

    def total_quantity(self):
        return sum(q for _, q in self.items)


class TestCart(unittest.TestCase):
    def test_a_new_cart_is_empty(self):
        self.assertEqual(Cart().total_quantity(), 0)

    def test_b_add_items(self):
        cart = Cart()
        cart.add("SKU-1", 2)
        self.assertGreaterEqual(cart.total_quantity(), 2)
'''})

T(topic="payments_logging", cls="order", node="test_charge_logs_amount",
  trigger="victim: test_quiet_mode sets the 'payments' logger to ERROR and never restores it; caplog.set_level on the root logger does not undo it (reversed order, repetition)",
  robust="test order, repetition",
  common={"appmod.py": '''
import logging

log = logging.getLogger("payments")


def charge(amount):
    log.info("charging %s", amount)
    return {"status": "ok", "amount": amount}


def configure_quiet():
    log.setLevel(logging.ERROR)
'''},
  flaky={"TEST": '''
import logging

from appmod import charge, configure_quiet


def test_charge_logs_amount(caplog):
    caplog.set_level(logging.INFO)
    charge(5)
    assert "charging 5" in caplog.text


def test_quiet_mode(caplog):
    configure_quiet()
    charge(7)
    assert "charging 7" not in caplog.text
'''},
  stable={"TEST": '''
import logging

import pytest

from appmod import charge, configure_quiet, log


@pytest.fixture
def restore_payments_level():
    old = log.level
    yield
    log.setLevel(old)


def test_charge_logs_amount(caplog):
    caplog.set_level(logging.INFO, logger="payments")
    charge(5)
    assert "charging 5" in caplog.text


def test_quiet_mode(caplog, restore_payments_level):
    configure_quiet()
    charge(7)
    assert "charging 7" not in caplog.text
'''})

T(topic="orders_report_db", cls="order", node="test_report_counts_orders",
  trigger="brittle: relies on rows inserted by test_insert_orders through a module-scoped sqlite fixture in conftest.py (fails alone or in reversed order)",
  robust="test order, running alone, repetition",
  common={"appmod.py": '''
def insert_order(conn, customer, total):
    conn.execute("INSERT INTO orders(customer, total) VALUES (?, ?)", (customer, total))


def report(conn):
    count, total = conn.execute("SELECT COUNT(*), COALESCE(SUM(total), 0) FROM orders").fetchone()
    return {"count": count, "total": total}
'''},
  flaky={"conftest.py": '''
import sqlite3

import pytest


@pytest.fixture(scope="module")
def db():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE orders(id INTEGER PRIMARY KEY, customer TEXT, total INTEGER)")
    yield conn
    conn.close()
''', "TEST": '''
from appmod import insert_order, report


def test_insert_orders(db):
    insert_order(db, "ada", 30)
    insert_order(db, "grace", 12)
    assert db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] >= 2


def test_report_counts_orders(db):
    assert report(db) == {"count": 2, "total": 42}
'''},
  stable={"conftest.py": '''
import sqlite3

import pytest


@pytest.fixture
def db():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE orders(id INTEGER PRIMARY KEY, customer TEXT, total INTEGER)")
    yield conn
    conn.close()


@pytest.fixture
def seeded_db(db):
    db.execute("INSERT INTO orders(customer, total) VALUES ('ada', 30), ('grace', 12)")
    return db
''', "TEST": '''
from appmod import insert_order, report


def test_insert_orders(db):
    insert_order(db, "ada", 30)
    insert_order(db, "grace", 12)
    assert db.execute("SELECT COUNT(*) FROM orders").fetchone()[0] >= 2


def test_report_counts_orders(seeded_db):
    assert report(seeded_db) == {"count": 2, "total": 42}
'''})

T(topic="default_headers", cls="order", node="test_headers_contain_only_auth",
  trigger="victim/polluter via a mutable default argument: test_headers_with_trace mutates the shared default dict (reversed order, repeated selection)",
  robust="test order, repetition",
  common={},
  flaky={"appmod.py": '''
def build_headers(token, extra={}):
    extra["Authorization"] = f"Bearer {token}"
    return extra
''', "TEST": '''
from appmod import build_headers


def test_headers_contain_only_auth():
    assert build_headers("t1") == {"Authorization": "Bearer t1"}


def test_headers_with_trace():
    headers = build_headers("t2")
    headers["X-Trace-Id"] = "abc123"
    assert headers["Authorization"] == "Bearer t2"
'''},
  stable={"appmod.py": '''
def build_headers(token, extra=None):
    headers = dict(extra or {})
    headers["Authorization"] = f"Bearer {token}"
    return headers
''', "TEST": '''
from appmod import build_headers


def test_headers_contain_only_auth():
    assert build_headers("t1") == {"Authorization": "Bearer t1"}


def test_headers_with_trace():
    headers = build_headers("t2")
    headers["X-Trace-Id"] = "abc123"
    assert headers["Authorization"] == "Bearer t2"
'''})

T(topic="bill_split_decimal", cls="order", node="test_split_bill_adds_up",
  trigger="victim: test_estimate_mode lowers decimal.getcontext().prec globally (reversed order, repetition)",
  robust="test order, repetition",
  common={"appmod.py": '''
from decimal import ROUND_DOWN, Decimal, getcontext

CENT = Decimal("0.01")


def split_bill(total, people):
    share = (total / people).quantize(CENT, rounding=ROUND_DOWN)
    shares = [share] * people
    shares[0] += total - share * people
    return shares


def estimate(total, people):
    return +(total / people)
'''},
  flaky={"TEST": '''
from decimal import Decimal, getcontext

from appmod import estimate, split_bill


def test_split_bill_adds_up():
    shares = split_bill(Decimal("100.00"), 3)
    assert sum(shares) == Decimal("100.00")
    assert shares[1] == Decimal("33.33")


def test_estimate_mode():
    getcontext().prec = 3
    assert estimate(Decimal("100.00"), 3) == Decimal("33.3")
'''},
  stable={"TEST": '''
from decimal import Decimal, localcontext

from appmod import estimate, split_bill


def test_split_bill_adds_up():
    shares = split_bill(Decimal("100.00"), 3)
    assert sum(shares) == Decimal("100.00")
    assert shares[1] == Decimal("33.33")


def test_estimate_mode():
    with localcontext() as ctx:
        ctx.prec = 3
        assert estimate(Decimal("100.00"), 3) == Decimal("33.3")
'''})

T(topic="raffle_seed", cls="order", node="test_pick_winner",
  trigger="brittle: expects the global random state left by random.seed(2024) in test_sample_ids (fails alone or reversed; then the winner is random)",
  robust="test order, running alone",
  common={"appmod.py": '''
import random


def sample_ids(k, rng=random):
    return rng.sample(range(10000), k)


def pick_winner(entries, rng=random):
    return rng.choice(entries)
'''},
  flaky={"TEST": '''
import random

from appmod import pick_winner, sample_ids


def test_sample_ids():
    random.seed(2024)
    assert len(set(sample_ids(3))) == 3


def test_pick_winner():
    assert pick_winner(["ann", "bob", "cy", "dee"]) == "cy"
'''},
  stable={"TEST": '''
import random

from appmod import pick_winner, sample_ids


def test_sample_ids():
    rng = random.Random(2024)
    assert len(set(sample_ids(3, rng))) == 3


def test_pick_winner():
    rng = random.Random(2024)
    sample_ids(3, rng)
    assert pick_winner(["ann", "bob", "cy", "dee"], rng) == "cy"
'''})

T(topic="cached_settings", cls="order", node="test_default_region",
  trigger="victim: test_region_override fills an lru_cache while APP_REGION is monkeypatched; the env is restored but the cache is not (reversed order, repetition)",
  robust="test order, repetition",
  common={"appmod.py": '''
import functools
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    region: str
    debug: bool


@functools.lru_cache(maxsize=1)
def get_settings():
    return Settings(region=os.environ.get("APP_REGION", "eu-west-1"),
                    debug=os.environ.get("APP_DEBUG") == "1")
'''},
  flaky={"TEST": '''
from appmod import get_settings


def test_default_region(monkeypatch):
    monkeypatch.delenv("APP_REGION", raising=False)
    assert get_settings().region == "eu-west-1"


def test_region_override(monkeypatch):
    monkeypatch.setenv("APP_REGION", "us-east-2")
    get_settings.cache_clear()
    assert get_settings().region == "us-east-2"
'''},
  stable={"TEST": '''
import pytest

from appmod import get_settings


@pytest.fixture(autouse=True)
def fresh_settings():
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_default_region(monkeypatch):
    monkeypatch.delenv("APP_REGION", raising=False)
    assert get_settings().region == "eu-west-1"


def test_region_override(monkeypatch):
    monkeypatch.setenv("APP_REGION", "us-east-2")
    get_settings.cache_clear()
    assert get_settings().region == "us-east-2"
'''})

T(topic="user_roles_fixture", cls="order", node="test_default_user_is_viewer",
  trigger="victim: module-scoped conftest fixture is mutated in place by promote() in test_promote_adds_admin (reversed order, repetition)",
  robust="test order, repetition",
  common={"conftest.py": '''
import pytest


@pytest.fixture(scope="module")
def default_user():
    return {"name": "ada", "roles": ["viewer"]}
'''},
  flaky={"appmod.py": '''
def promote(user, role="admin"):
    if role not in user["roles"]:
        user["roles"].append(role)
    return user
''', "TEST": '''
from appmod import promote


def test_default_user_is_viewer(default_user):
    assert default_user["roles"] == ["viewer"]


def test_promote_adds_admin(default_user):
    promoted = promote(default_user)
    assert "admin" in promoted["roles"]
'''},
  stable={"appmod.py": '''
def promote(user, role="admin"):
    roles = list(user["roles"])
    if role not in roles:
        roles.append(role)
    return {**user, "roles": roles}
''', "TEST": '''
from appmod import promote


def test_default_user_is_viewer(default_user):
    assert default_user["roles"] == ["viewer"]


def test_promote_adds_admin(default_user):
    promoted = promote(default_user)
    assert "admin" in promoted["roles"]
'''})
