# Randomness, hash seed (set order), floating point and time/date/time-zone topics.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

# ----------------------------------------------------------------------------------------- random
T.append(dict(
    topic="gift_card_codes", cls="random", test="test_batch_codes_are_unique",
    trigger="unseeded randomness: 600 independent 4-character codes (36^4 possibilities) collide with probability 1-exp(-600*599/2/36^4) = ~10% (birthday problem); low flaky rate",
    robust="unseeded randomness (codes are drawn until the batch is unique)",
    files={
"CID_codes.py": r'''
"""Gift card codes printed on the in-store cards (short, so cashiers can type them)."""
import random
import string

ALPHABET = string.ascii_uppercase + string.digits


def new_code(length=4):
    return "".join(random.choice(ALPHABET) for _ in range(length))


def issue_batch(count):
    return [new_code() for _ in range(count)]  #@F
    codes = {}  #@S
    while len(codes) < count:  #@S
        codes.setdefault(new_code(), None)  #@S
    return list(codes)  #@S
''',
"test_CID.py": r'''
import CID_codes as codes


def test_batch_codes_are_unique():
    batch = codes.issue_batch(600)
    assert len(batch) == 600
    assert len(set(batch)) == len(batch)
''',
    }))

T.append(dict(
    topic="dp_count_noise", cls="random", test="test_published_count_is_close",
    trigger="unseeded randomness: Gaussian noise with sigma 1.5 is added to a published count; the test allows |error| <= 2 after rounding, P(|N(0,1.5)| >= 2.5) = ~10%; low flaky rate",
    robust="unseeded randomness (the test injects a seeded generator)",
    files={
"CID_privacy.py": r'''
"""Publishing aggregate counts with noise (a simple differential-privacy style mechanism)."""
import random


def noisy_count(true_count, sigma=1.5, rng=random):
    return max(0, round(true_count + rng.gauss(0, sigma)))
''',
"test_CID.py": r'''
import random

import CID_privacy as privacy


def test_published_count_is_close():
    published = privacy.noisy_count(100)  #@F
    published = privacy.noisy_count(100, rng=random.Random(7))  #@S
    assert abs(published - 100) <= 2
''',
    }))

T.append(dict(
    topic="tournament_bracket_seeding", cls="random", test="test_top_seeds_meet_only_in_final",
    trigger="unseeded randomness: the draw shuffles all eight teams, so the two top seeds land in the same half with probability 3/7 = ~43%",
    robust="unseeded randomness (top seeds are placed first, only the rest is shuffled)",
    files={
"CID_bracket.py": r'''
"""Draw for an 8-team knockout bracket; teams are given in seed order."""
import random


def draw(teams):
    order = list(teams)  #@F
    random.shuffle(order)  #@F
    return order[:4], order[4:]  #@F
    rest = list(teams[2:])  #@S
    random.shuffle(rest)  #@S
    return [teams[0]] + rest[:3], [teams[1]] + rest[3:]  #@S
''',
"test_CID.py": r'''
import CID_bracket as bracket

TEAMS = ["Lions", "Tigers", "Bears", "Wolves", "Eagles", "Sharks", "Hawks", "Bulls"]


def test_top_seeds_meet_only_in_final():
    left, right = bracket.draw(TEAMS)
    assert sorted(left + right) == sorted(TEAMS)
    assert ("Lions" in left) != ("Tigers" in left)
''',
    }))

T.append(dict(
    topic="customer_factory_names", cls="random", test="test_customers_export_to_sqlite",
    trigger="unseeded randomness: the test-data factory picks 3 random last names from 30, one of which is O'Neill; the export builds SQL with an f-string, so an apostrophe breaks the statement, P = 1-(29/30)^3 = ~10%; low flaky rate",
    robust="unseeded test data (the export uses query parameters)",
    files={
"CID_factory.py": r'''
"""factory_boy-style test data factory."""
import random
from dataclasses import dataclass

FIRST = ["Anna", "Ben", "Chloe", "David", "Emma", "Felix", "Grace", "Henry", "Ida", "Jonas"]
LAST = ["Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans", "Thomas", "Johnson", "Roberts", "Walker",
        "Wright", "Robinson", "Thompson", "White", "Hughes", "Edwards", "Green", "Hall", "Wood", "Harris",
        "Lewis", "Martin", "Jackson", "Clarke", "Clark", "Turner", "Hill", "Scott", "Cooper", "O'Neill"]


@dataclass
class Customer:
    first: str
    last: str


def make_customer():
    return Customer(random.choice(FIRST), random.choice(LAST))
''',
"CID_export.py": r'''
"""Export customers into the reporting database."""


def export(conn, customers):
    conn.execute("CREATE TABLE IF NOT EXISTS customers (first TEXT, last TEXT)")
    script = "".join(f"INSERT INTO customers VALUES ('{c.first}', '{c.last}');" for c in customers)  #@F
    conn.executescript(script)  #@F
    conn.executemany("INSERT INTO customers VALUES (?, ?)", [(c.first, c.last) for c in customers])  #@S
    conn.commit()
    return conn.execute("SELECT COUNT(*) FROM customers").fetchone()[0]
''',
"test_CID.py": r'''
import sqlite3

import CID_export as export
import CID_factory as factory


def test_customers_export_to_sqlite():
    customers = [factory.make_customer() for _ in range(3)]
    conn = sqlite3.connect(":memory:")
    assert export.export(conn, customers) == 3
''',
    }))

# ----------------------------------------------------------------------------------------- hash seed
T.append(dict(
    topic="permission_scope_header", cls="hash-seed", test="test_scope_header",
    trigger="hash seed: the requested OAuth scopes are de-duplicated with set(), so the order in the scope string follows PYTHONHASHSEED (2 scopes: ~50%)",
    robust="hash seed (dict.fromkeys keeps the request order)",
    files={
"CID_oauth.py": r'''
"""Building the OAuth token request."""


def scope_param(scopes):
    return " ".join(set(scopes))  #@F
    return " ".join(dict.fromkeys(scopes))  #@S


def token_request(client_id, scopes):
    return {"grant_type": "client_credentials", "client_id": client_id, "scope": scope_param(scopes)}
''',
"test_CID.py": r'''
import CID_oauth as oauth


def test_scope_header():
    req = oauth.token_request("svc-reports", ["read", "write", "read"])
    assert req["scope"] == "read write"
''',
    }))

T.append(dict(
    topic="sitemap_xml_order", cls="hash-seed", test="test_sitemap_matches_golden_file",
    trigger="hash seed: page URLs are de-duplicated in a set and written in set order; the golden file has them in path order (3 URLs: ~5/6 of hash seeds differ)",
    robust="hash seed (URLs are sorted)",
    files={
"CID_sitemap.xml": '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>https://shop.example.com/about</loc></url>\n  <url><loc>https://shop.example.com/blog</loc></url>\n  <url><loc>https://shop.example.com/contact</loc></url>\n</urlset>\n',
"CID_sitemap.py": r'''
"""sitemap.xml generation from the CMS page tree (pages may appear in several menus)."""

BASE = "https://shop.example.com"


def render(paths):
    urls = set(BASE + p for p in paths)  #@F
    urls = sorted(set(BASE + p for p in paths))  #@S
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"  <url><loc>{u}</loc></url>" for u in urls]
    lines.append("</urlset>")
    return "\n".join(lines) + "\n"
''',
"test_CID.py": r'''
import pathlib

import CID_sitemap as sitemap

GOLDEN = pathlib.Path(__file__).resolve().parent / "CID_sitemap.xml"


def test_sitemap_matches_golden_file():
    menus = ["/about", "/blog", "/contact", "/blog", "/about"]
    assert sitemap.render(menus) == GOLDEN.read_text()
''',
    }))

T.append(dict(
    topic="fallback_locale_pick", cls="hash-seed", test="test_unknown_language_gets_real_locale",
    trigger="hash seed: the fallback locale is next(iter(SUPPORTED)) of a set of 6 locale tags; with about 1 in 6 hash seeds the first one is the pseudo-locale 'qps-ploc'; low flaky rate",
    robust="hash seed (explicit default locale)",
    files={
"CID_i18n.py": r'''
"""Accept-Language negotiation."""

SUPPORTED = {"de", "en", "fr", "es", "it", "qps-ploc"}  # qps-ploc: pseudo-locale for i18n QA
DEFAULT = "en"


def parse_accept(header):
    tags = []
    for part in header.split(","):
        tag = part.split(";")[0].strip().lower()
        if tag:
            tags.append(tag)
    return tags


def negotiate(header):
    for tag in parse_accept(header):
        if tag in SUPPORTED:
            return tag
        if tag.split("-")[0] in SUPPORTED:
            return tag.split("-")[0]
    return next(iter(SUPPORTED))  # any supported locale will do  #@F
    return DEFAULT  #@S
''',
"test_CID.py": r'''
import CID_i18n as i18n


def test_known_language():
    assert i18n.negotiate("fr-CH, fr;q=0.9") == "fr"


def test_unknown_language_gets_real_locale():
    loc = i18n.negotiate("xx-YY, zz;q=0.5")
    assert loc in i18n.SUPPORTED
    assert loc != "qps-ploc"
''',
    }))

# ----------------------------------------------------------------------------------------- float
T.append(dict(
    topic="energy_meter_total", cls="float", test="test_site_total_kwh",
    trigger="floating point + completion order: four meter readings (0.1..0.4 kWh) are summed in as_completed order of a thread pool; 4 of the 24 orders give 1.0000000000000002 instead of 1.0 (~17%); low flaky rate",
    robust="completion order (math.fsum is exact-rounded, order independent)",
    files={
"CID_meters.py": r'''
"""Site energy total from the sub-meters (each read over a slow fieldbus, in parallel)."""
import math
import random
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

READINGS = {"M1": 0.1, "M2": 0.2, "M3": 0.3, "M4": 0.4}


def read_meter(meter):
    time.sleep(random.random() * 0.004)  # bus latency
    return READINGS[meter]


def site_total(meters):
    with ThreadPoolExecutor(len(meters)) as ex:
        futures = [ex.submit(read_meter, m) for m in meters]
        return sum(f.result() for f in as_completed(futures))  #@F
        return math.fsum(f.result() for f in as_completed(futures))  #@S
''',
"test_CID.py": r'''
import CID_meters as meters


def test_site_total_kwh():
    assert meters.site_total(["M1", "M2", "M3", "M4"]) == 1.0
''',
    }))

T.append(dict(
    topic="portfolio_weights_normalize", cls="float", test="test_random_portfolio_weights_sum_to_one",
    trigger="floating point + unseeded randomness: five random weights divided by their sum add up to exactly 1.0 only about 2/3 of the time; the test compares with ==",
    robust="unseeded randomness, float rounding (pytest.approx)",
    files={
"CID_portfolio.py": r'''
"""Random long-only portfolios for the backtest's Monte Carlo baseline."""
import random


def normalize(raw):
    total = sum(raw)
    return [w / total for w in raw]


def random_portfolio(n, rng=random):
    return normalize([rng.random() for _ in range(n)])
''',
"test_CID.py": r'''
import pytest

import CID_portfolio as portfolio


def test_random_portfolio_weights_sum_to_one():
    weights = portfolio.random_portfolio(5)
    assert all(w >= 0 for w in weights)
    assert sum(weights) == 1.0  #@F
    assert sum(weights) == pytest.approx(1.0)  #@S
''',
    }))

# ----------------------------------------------------------------------------------------- time
T.append(dict(
    topic="statement_period_tz", cls="time", test="test_statement_dated_end_of_period",
    trigger="time zone + time of day: the statement date is date.today() (local) while the period end is the UTC date; they differ whenever the local date is not the UTC date (measured 21-23 UTC: TZ=ABC-12 is already tomorrow)",
    robust="time zone (both dates are UTC dates)",
    files={
"CID_statements.py": r'''
"""Account statements; periods are closed in UTC by the ledger."""
from datetime import date, datetime, timezone


def period_end():
    return datetime.now(timezone.utc).date()


def make_statement(account):
    return {"account": account, "date": date.today(), "period_end": period_end()}  #@F
    return {"account": account, "date": datetime.now(timezone.utc).date(), "period_end": period_end()}  #@S
''',
"test_CID.py": r'''
import CID_statements as statements


def test_statement_dated_end_of_period():
    st = statements.make_statement("ACC-1")
    assert st["date"] == st["period_end"]
''',
    }))

T.append(dict(
    topic="access_log_epoch", cls="time", test="test_log_timestamp_to_epoch",
    trigger="time zone: UTC access-log timestamps are converted with time.mktime (local time); correct only when the process time zone is UTC (fails under any TZ with an offset)",
    robust="time zone (calendar.timegm)",
    files={
"CID_logparse.py": r'''
"""Parsing access logs written by the load balancer (timestamps are UTC, '+0000')."""
import calendar
import time


def to_epoch(stamp):
    fields = stamp.split()[0]
    parsed = time.strptime(fields, "%d/%b/%Y:%H:%M:%S")
    return int(time.mktime(parsed))  #@F
    return calendar.timegm(parsed)  #@S


def parse_line(line):
    ip, rest = line.split(" ", 1)
    stamp = rest[rest.index("[") + 1: rest.index("]")]
    return {"ip": ip, "epoch": to_epoch(stamp)}
''',
"test_CID.py": r'''
import CID_logparse as logparse


def test_log_timestamp_to_epoch():
    line = '203.0.113.9 - - [29/Mar/2026:01:30:00 +0000] "GET /health HTTP/1.1" 200 2'
    assert logparse.parse_line(line) == {"ip": "203.0.113.9", "epoch": 1774747800}
''',
    }))

T.append(dict(
    topic="webhook_signature_timestamp", cls="time", test="test_delivered_webhook_verifies",
    trigger="clock: verify() recomputes the signature with the current second instead of the timestamp sent along; fails when the ~50-100 ms of compressing/decompressing the payload crosses a second boundary (low flaky rate, higher when the machine is busy)",
    robust="clock (the signed timestamp travels with the request)",
    files={
"CID_signing.py": r'''
"""Signed outgoing webhooks: HMAC over '<unix-seconds>.<body>'."""
import hashlib
import hmac
import time
import zlib

SECRET = b"whsec_test_3f9a"


def sign(body, ts=None):
    ts = int(time.time()) if ts is None else ts
    return ts, hmac.new(SECRET, f"{ts}.".encode() + body, hashlib.sha256).hexdigest()


def verify(body, signature, ts=None, tolerance=300):
    if ts is None:
        ts = int(time.time())
    if abs(time.time() - ts) > tolerance:
        return False
    return hmac.compare_digest(sign(body, ts)[1], signature)


def deliver(body):
    """What the HTTP hop does to the body: gzip on the way out, gunzip at the receiver."""
    return zlib.decompress(zlib.compress(body, 9))
''',
"test_CID.py": r'''
import json

import CID_signing as signing


def test_delivered_webhook_verifies():
    body = json.dumps({"event": "order.paid", "lines": [{"sku": f"S{i}", "qty": i % 7, "note": "x" * (i % 50)} for i in range(8000)]}).encode()
    ts, sig = signing.sign(body)
    received = signing.deliver(body)
    assert signing.verify(received, sig)  #@F
    assert signing.verify(received, sig, ts)  #@S
''',
    }))

T.append(dict(
    topic="payment_grace_deadline", cls="time", test="test_reminder_mentions_deadline",
    trigger="date: the grace deadline is built as date(y, m, day + 3), which raises ValueError on the last three days of a month (the 29th-31st; measured with faketime 2026-12-30); passes on 1 December and 10 June",
    robust="date (timedelta arithmetic)",
    files={
"CID_dunning.py": r'''
"""Payment reminders: customers get three more days after the reminder."""
from datetime import date, timedelta


def grace_deadline(today=None):
    today = today or date.today()
    return date(today.year, today.month, today.day + 3)  #@F
    return today + timedelta(days=3)  #@S


def reminder_text(invoice):
    return f"Invoice {invoice} is overdue. Please pay by {grace_deadline():%d %b %Y}."
''',
"test_CID.py": r'''
import CID_dunning as dunning


def test_reminder_mentions_deadline():
    text = dunning.reminder_text("INV-2041")
    assert text.startswith("Invoice INV-2041 is overdue.")
    assert "pay by" in text
''',
    }))
