# Hash-seed (unordered collections), randomness, floating point and time/date/zone topics.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

# ----------------------------------------------------------------------------------------- hash-seed
T.append(dict(
    topic="html_class_attr_render", cls="hash-seed", test="test_invalid_email_input_markup",
    trigger="hash seed: the CSS classes are collected in a set of str and joined in iteration order, which depends on PYTHONHASHSEED (2 classes: about half of the seeds)",
    robust="hash seed",
    files={
"CID_widgets.py": r'''
"""Form widgets rendered to HTML; CSS classes come from the theme, the field state and the caller."""
from html import escape

THEME = {"input": {"form-control"}, "select": {"form-select"}}


def css_classes(kind, *, invalid=False, extra=()):
    classes = set(THEME.get(kind, ())) | set(extra)
    if invalid:
        classes.add("is-invalid")
    return " ".join(classes)  #@F
    return " ".join(sorted(classes))  #@S


def render_input(name, value="", *, type="text", invalid=False, extra=()):
    return (f'<input type="{type}" name="{escape(name)}" value="{escape(value)}" '
            f'class="{css_classes("input", invalid=invalid, extra=extra)}">')
''',
"test_CID.py": r'''
import CID_widgets as widgets


def test_invalid_email_input_markup():
    html = widgets.render_input("email", "ana@", type="email", invalid=True)
    assert html == '<input type="email" name="email" value="ana@" class="form-control is-invalid">'


def test_value_is_escaped():
    assert 'value="&lt;b&gt;"' in widgets.render_input("q", "<b>")
''',
    }))

T.append(dict(
    topic="package_install_plan_toposort", cls="hash-seed", test="test_plan_for_shop_plugins",
    trigger="hash seed: Kahn's algorithm takes the next ready package with set.pop(); with several ready packages the plan is a different valid order for most PYTHONHASHSEED values",
    robust="hash seed",
    files={
"CID_plan.py": r'''
"""Install plan for plugin packages: dependencies before dependents (Kahn's algorithm)."""


def install_plan(requires):
    pending = {name: set(deps) for name, deps in requires.items()}
    ready = {name for name, deps in pending.items() if not deps}
    plan = []
    while ready:
        name = ready.pop()  #@F
        name = min(ready)  # deterministic: alphabetical among the ready ones  #@S
        ready.discard(name)  #@S
        plan.append(name)
        for other, deps in pending.items():
            if name in deps:
                deps.discard(name)
                if not deps:
                    ready.add(other)
    if len(plan) != len(pending):
        raise ValueError("dependency cycle")
    return plan
''',
"test_CID.py": r'''
import pytest

import CID_plan as plan

SHOP = {
    "core": set(),
    "auth": {"core"},
    "billing": {"core", "auth"},
    "reports": {"core"},
    "search": {"core"},
}


def test_plan_for_shop_plugins():
    assert plan.install_plan(SHOP) == ["core", "auth", "billing", "reports", "search"]


def test_cycle_is_rejected():
    with pytest.raises(ValueError):
        plan.install_plan({"a": {"b"}, "b": {"a"}})
''',
    }))

T.append(dict(
    topic="vary_header_etag", cls="hash-seed", test="test_etag_matches_cdn_record",
    trigger="hash seed: the Vary key is built by iterating a set of header names, so the ETag (sha1 of body + key) differs between processes with different PYTHONHASHSEED (3 names: most seeds)",
    robust="hash seed",
    files={
"CID_cache.py": r'''
"""HTTP caching: the ETag of a cached representation hashes the body and the request headers named in Vary.
The ETag must be identical on every app worker, or the CDN revalidates forever."""
import hashlib


def vary_key(request_headers, vary):
    names = {h.strip().lower() for h in vary.split(",") if h.strip()}
    headers = {k.lower(): v for k, v in request_headers.items()}
    parts = [f"{n}={headers.get(n, '')}" for n in names]  #@F
    parts = [f"{n}={headers.get(n, '')}" for n in sorted(names)]  #@S
    return "&".join(parts)


def etag(body, request_headers, vary):
    digest = hashlib.sha1(body + b"\0" + vary_key(request_headers, vary).encode()).hexdigest()[:16]
    return f'W/"{digest}"'
''',
"test_CID.py": r'''
import CID_cache as cache

REQUEST = {"Accept-Encoding": "gzip", "Accept-Language": "de-DE", "X-Currency": "EUR"}


def test_etag_matches_cdn_record():
    # value recorded from the CDN logs for this page and request
    tag = cache.etag(b"<h1>Angebote</h1>", REQUEST, "Accept-Encoding, Accept-Language, X-Currency")
    assert tag == 'W/"11b62dc7772cf909"'


def test_etag_changes_with_language():
    a = cache.etag(b"x", {"Accept-Language": "de"}, "Accept-Language")
    b = cache.etag(b"x", {"Accept-Language": "fr"}, "Accept-Language")
    assert a != b
''',
    }))

T.append(dict(
    topic="username_bloom_filter", cls="hash-seed", test="test_free_names_are_reported_available",
    trigger="hash seed (low rate): the Bloom filter positions come from the built-in hash() of (i, name), which is salted per process; for some PYTHONHASHSEED values one of the four free names is a false positive (~10% of seeds)",
    robust="hash seed",
    files={
"CID_bloom.py": r'''
"""Signup: a Bloom filter of taken usernames answers 'definitely free' without a database query."""
import hashlib


class BloomFilter:
    def __init__(self, bits=576, hashes=3):
        self.bits = bits
        self.hashes = hashes
        self.array = 0

    def _positions(self, item):
        for i in range(self.hashes):
            yield hash((i, item)) % self.bits  #@F
            digest = hashlib.blake2b(f"{i}:{item}".encode(), digest_size=8).digest()  #@S
            yield int.from_bytes(digest, "big") % self.bits  #@S

    def add(self, item):
        for pos in self._positions(item):
            self.array |= 1 << pos

    def __contains__(self, item):
        return all(self.array >> pos & 1 for pos in self._positions(item))


def taken_filter(usernames):
    bloom = BloomFilter()
    for name in usernames:
        bloom.add(name.lower())
    return bloom
''',
"test_CID.py": r'''
import CID_bloom as bloom

TAKEN = [f"user{n:03d}" for n in range(50)] + ["admin", "root", "support", "ana", "bob",
                                              "carla", "dieter", "emma", "farid", "gus"]


def test_taken_names_are_found():
    f = bloom.taken_filter(TAKEN)
    assert all(name in f for name in TAKEN)


def test_free_names_are_reported_available():
    f = bloom.taken_filter(TAKEN)
    for name in ["night_owl", "zoe.k", "marketing-team", "harbour_pilot"]:
        assert name not in f, name
''',
    }))

# ----------------------------------------------------------------------------------------- random
T.append(dict(
    topic="wifi_guest_passphrase", cls="random", test="test_guest_passphrase_meets_router_policy",
    trigger="unseeded randomness (secrets): 12 characters drawn from letters+digits without forcing each class; the router policy needs a digit, an upper- and a lower-case letter (~13% of draws miss one)",
    robust="randomness (policy enforced by re-drawing)",
    files={
"CID_passphrase.py": r'''
"""Guest Wi-Fi: a new passphrase is generated every morning and pushed to the router."""
import secrets
import string

ALPHABET = string.ascii_letters + string.digits


def meets_policy(pw):
    return (len(pw) >= 12 and any(c.islower() for c in pw) and any(c.isupper() for c in pw)
            and any(c.isdigit() for c in pw))


def guest_passphrase(length=12):
    return "".join(secrets.choice(ALPHABET) for _ in range(length))  #@F
    while True:  # recipe from the secrets docs: draw until the policy holds  #@S
        pw = "".join(secrets.choice(ALPHABET) for _ in range(length))  #@S
        if meets_policy(pw):  #@S
            return pw  #@S
''',
"test_CID.py": r'''
import CID_passphrase as passphrase


def test_guest_passphrase_meets_router_policy():
    pw = passphrase.guest_passphrase()
    assert len(pw) == 12
    assert passphrase.meets_policy(pw), pw


def test_passphrases_differ():
    assert passphrase.guest_passphrase() != passphrase.guest_passphrase()
''',
    }))

T.append(dict(
    topic="ad_creative_rotation", cls="random", test="test_rotation_is_roughly_even",
    trigger="unseeded randomness (statistical test): 300 impressions over 3 equally weighted creatives from the global random module; the test requires >= 85 each (mean 100, sd 8.2), which misses in ~8% of runs",
    robust="randomness (injected seeded generator)",
    files={
"CID_rotation.py": r'''
"""Ad server: picks one creative per impression according to the campaign weights."""
import collections
import random


class Rotation:
    def __init__(self, creatives, rng=None):
        self.names = [c for c, _ in creatives]
        self.weights = [w for _, w in creatives]
        self.rng = rng or random

    def pick(self):
        return self.rng.choices(self.names, self.weights)[0]

    def simulate(self, impressions):
        return collections.Counter(self.pick() for _ in range(impressions))
''',
"test_CID.py": r'''
import random

import CID_rotation as rotation

CAMPAIGN = [("banner-blue", 1), ("banner-red", 1), ("video-15s", 1)]


def test_rotation_is_roughly_even():
    rot = rotation.Rotation(CAMPAIGN)  #@F
    rot = rotation.Rotation(CAMPAIGN, rng=random.Random(20261207))  #@S
    counts = rot.simulate(300)
    assert sum(counts.values()) == 300
    assert min(counts[name] for name, _ in CAMPAIGN) >= 85, counts


def test_zero_weight_never_shown():
    rot = rotation.Rotation([("a", 1), ("b", 0)], rng=random.Random(1))
    assert rot.simulate(50)["b"] == 0
''',
    }))

T.append(dict(
    topic="purchase_order_factory", cls="random", test="test_generated_po_passes_validation",
    trigger="unseeded randomness in a test-data factory: line quantities are random.randint(0, 20), and quantity 0 is rejected by validate_po (3 lines: ~14% of runs)",
    robust="randomness (factory draws only valid quantities)",
    files={
"CID_po.py": r'''
"""Purchase orders sent to suppliers."""
from decimal import Decimal


def validate_po(po):
    errors = []
    if not po["lines"]:
        errors.append("no lines")
    for i, line in enumerate(po["lines"]):
        if line["qty"] < 1:
            errors.append(f"line {i}: quantity must be at least 1")
        if Decimal(line["unit_price"]) <= 0:
            errors.append(f"line {i}: price must be positive")
    return errors


def po_total(po):
    return sum(Decimal(line["unit_price"]) * line["qty"] for line in po["lines"])
''',
"CID_factories.py": r'''
"""Test-data factories (like factory_boy's fuzzy attributes)."""
import random

CATALOG = {"PEN-BLK": "0.89", "PAD-A4": "2.49", "INK-CYN": "17.90", "CLIP-50": "1.15", "TAPE-19": "0.99"}


def make_po(lines=3, rng=random):
    skus = rng.sample(sorted(CATALOG), lines)
    return {
        "supplier": "Acme Office Supplies",
        "lines": [{"sku": sku, "qty": rng.randint(0, 20), "unit_price": CATALOG[sku]} for sku in skus],  #@F
        "lines": [{"sku": sku, "qty": rng.randint(1, 20), "unit_price": CATALOG[sku]} for sku in skus],  #@S
    }
''',
"test_CID.py": r'''
import CID_factories as factories
import CID_po as po_mod


def test_generated_po_passes_validation():
    po = factories.make_po()
    assert po_mod.validate_po(po) == []
    assert po_mod.po_total(po) > 0


def test_empty_po_is_rejected():
    assert po_mod.validate_po({"supplier": "x", "lines": []}) == ["no lines"]
''',
    }))

T.append(dict(
    topic="delivery_zone_kmeans", cls="random", test="test_depots_found_near_city_centres",
    trigger="unseeded randomness: k-means with the default single random initialisation (random.sample of the stops) sometimes stays in a local minimum that merges two cities (~11% of runs)",
    robust="randomness (seeded generator with enough restarts)",
    files={
"CID_kmeans.py": r'''
"""Depot planning: cluster delivery stops with Lloyd's k-means, best of n_init random initialisations."""
import math
import random


def _assign(points, centres):
    return [min(range(len(centres)), key=lambda j: math.dist(p, centres[j])) for p in points]


def _inertia(points, centres, labels):
    return sum(math.dist(p, centres[j]) ** 2 for p, j in zip(points, labels))


def kmeans(points, k, n_init=1, iterations=20, rng=random):
    best = None
    for _ in range(n_init):
        centres = rng.sample(points, k)
        for _ in range(iterations):
            labels = _assign(points, centres)
            new = []
            for j in range(k):
                members = [p for p, lab in zip(points, labels) if lab == j]
                new.append(tuple(sum(c) / len(members) for c in zip(*members)) if members else centres[j])
            if new == centres:
                break
            centres = new
        labels = _assign(points, centres)
        score = _inertia(points, centres, labels)
        if best is None or score < best[0]:
            best = (score, centres)
    return sorted(best[1])
''',
"test_CID.py": r'''
import math
import random

import CID_kmeans as km

CITIES = [(10.0, 10.0), (50.0, 12.0), (30.0, 45.0)]


def stops():
    gen = random.Random(4)  # fixed, realistic-looking scatter around the three cities
    return [(cx + gen.uniform(-6, 6), cy + gen.uniform(-6, 6)) for cx, cy in CITIES for _ in range(25)]


def test_depots_found_near_city_centres():
    depots = km.kmeans(stops(), 3)  #@F
    depots = km.kmeans(stops(), 3, n_init=10, rng=random.Random(7))  #@S
    for city in CITIES:
        assert min(math.dist(city, d) for d in depots) < 3.0, depots
''',
    }))

# ----------------------------------------------------------------------------------------- float
T.append(dict(
    topic="carbon_footprint_total", cls="float", test="test_trip_footprint",
    trigger="float summation order via hash seed: the trip's activity codes are a set of str, so the order of the float sum (and its last bit) depends on PYTHONHASHSEED; the test compares with ==",
    robust="hash seed, summation order (math.fsum)",
    files={
"CID_footprint.py": r'''
"""Travel footprint in tonnes CO2e per booked activity (deduplicated: each activity counts once per trip)."""
import math

FACTORS = {"flight": 0.1, "hotel": 0.2, "train": 0.3, "taxi": 0.06}


def trip_footprint(activities):
    codes = set(activities)
    return sum(FACTORS[c] for c in codes)  #@F
    return math.fsum(FACTORS[c] for c in codes)  #@S
''',
"test_CID.py": r'''
import CID_footprint as fp


def test_trip_footprint():
    assert fp.trip_footprint(["flight", "hotel", "train", "hotel"]) == 0.6


def test_unknown_activity_rejected():
    try:
        fp.trip_footprint(["rocket"])
    except KeyError:
        pass
    else:
        raise AssertionError("unknown activity accepted")
''',
    }))

T.append(dict(
    topic="gradient_accumulation_shuffle", cls="float", test="test_accumulated_gradient_equals_full_batch",
    trigger="float summation order via unseeded shuffle: mini-batches are shuffled with the global random module before the per-batch gradients are accumulated; the test compares the accumulated sum with == to the full-batch sum",
    robust="summation order (tolerance comparison)",
    files={
"CID_train.py": r'''
"""Gradient accumulation for a 1-parameter least-squares model y = w * x."""
import random


def grad(w, batch):
    return sum(2 * x * (w * x - y) for x, y in batch)


def accumulated_grad(w, data, batch_size=2, rng=random):
    data = list(data)
    rng.shuffle(data)  # each epoch sees the batches in a new order
    total = 0.0
    for i in range(0, len(data), batch_size):
        total += grad(w, data[i:i + batch_size])
    return total
''',
"test_CID.py": r'''
import pytest

import CID_train as train

DATA = [(0.1, 0.3), (0.7, 2.2), (0.2, 0.5), (1.3, 3.8), (0.9, 2.9), (0.4, 1.1), (1.1, 3.4), (0.6, 1.7)]


def test_accumulated_gradient_equals_full_batch():
    full = train.grad(0.5, DATA)
    assert train.accumulated_grad(0.5, DATA) == full  #@F
    assert train.accumulated_grad(0.5, DATA) == pytest.approx(full, rel=1e-12)  #@S
''',
    }))

# ----------------------------------------------------------------------------------------- time
T.append(dict(
    topic="jwt_not_before_round", cls="time", test="test_fresh_token_verifies",
    trigger="clock: issue() sets iat/nbf = round(time.time()); when the fraction of the current second is >= 0.5 nbf lies in the future and the immediate verify() raises 'not yet valid' (~half of the runs)",
    robust="clock (whole seconds floored)",
    files={
"CID_tokens.py": r'''
"""Minimal HS256 JWTs for the internal API."""
import base64
import hashlib
import hmac
import json
import time


class InvalidToken(Exception):
    pass


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def issue(sub, secret, ttl=900):
    now = round(time.time())  #@F
    now = int(time.time())  #@S
    claims = {"sub": sub, "iat": now, "nbf": now, "exp": now + ttl}
    head = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = _b64(json.dumps(claims).encode())
    sig = _b64(hmac.new(secret, f"{head}.{body}".encode(), hashlib.sha256).digest())
    return f"{head}.{body}.{sig}"


def verify(token, secret):
    head, body, sig = token.split(".")
    expected = _b64(hmac.new(secret, f"{head}.{body}".encode(), hashlib.sha256).digest())
    if not hmac.compare_digest(sig, expected):
        raise InvalidToken("bad signature")
    claims = json.loads(_unb64(body))
    now = time.time()
    if now < claims["nbf"]:
        raise InvalidToken("token not yet valid")
    if now >= claims["exp"]:
        raise InvalidToken("token expired")
    return claims
''',
"test_CID.py": r'''
import pytest

import CID_tokens as tokens

SECRET = b"internal-api-test-secret"


def test_fresh_token_verifies():
    token = tokens.issue("svc-billing", SECRET)
    assert tokens.verify(token, SECRET)["sub"] == "svc-billing"


def test_tampered_token_rejected():
    token = tokens.issue("svc-billing", SECRET)
    with pytest.raises(tokens.InvalidToken):
        tokens.verify(token[:-2] + "xx", SECRET)
''',
    }))

T.append(dict(
    topic="presence_last_seen", cls="time", test="test_user_online_after_heartbeat",
    trigger="time zone: heartbeats are stored with naive datetime.utcnow() but compared with naive datetime.now(); east of UTC (TZ=ABC-12, Europe/Berlin) the user looks hours stale; west of UTC the difference is negative and the test passes",
    robust="time zone (aware UTC datetimes)",
    files={
"CID_presence.py": r'''
"""Chat presence: a user is online if the last heartbeat is less than five minutes old."""
from datetime import datetime, timedelta, timezone

ONLINE_WINDOW = timedelta(minutes=5)


class Presence:
    def __init__(self):
        self.last_seen = {}

    def heartbeat(self, user):
        self.last_seen[user] = datetime.utcnow()  #@F
        self.last_seen[user] = datetime.now(timezone.utc)  #@S

    def is_online(self, user):
        seen = self.last_seen.get(user)
        if seen is None:
            return False
        return datetime.now() - seen < ONLINE_WINDOW  #@F
        return datetime.now(timezone.utc) - seen < ONLINE_WINDOW  #@S
''',
"test_CID.py": r'''
import CID_presence as presence


def test_user_online_after_heartbeat():
    p = presence.Presence()
    p.heartbeat("ana")
    assert p.is_online("ana")
    assert not p.is_online("bob")
''',
    }))

T.append(dict(
    topic="cookie_expires_header", cls="time", test="test_session_cookie_header",
    trigger="time zone: the Expires attribute is formatted from time.localtime() but labelled GMT; any TZ other than UTC shifts the hour (and maybe the day)",
    robust="time zone (time.gmtime)",
    files={
"CID_cookies.py": r'''
"""Set-Cookie header for the session cookie (RFC 6265 dates are always GMT)."""
import time


def http_date(ts):
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.localtime(ts))  #@F
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(ts))  #@S


def session_cookie(value, max_age, now):
    return (f"sid={value}; Path=/; Max-Age={max_age}; Expires={http_date(now + max_age)}; "
            "HttpOnly; Secure; SameSite=Lax")
''',
"test_CID.py": r'''
import CID_cookies as cookies


def test_session_cookie_header():
    header = cookies.session_cookie("7f3a9c", 3600, now=1767225600)  # 2026-01-01 00:00:00 UTC
    assert header == ("sid=7f3a9c; Path=/; Max-Age=3600; Expires=Thu, 01 Jan 2026 01:00:00 GMT; "
                      "HttpOnly; Secure; SameSite=Lax")
''',
    }))

T.append(dict(
    topic="quarterly_revenue_bucket", cls="time", test="test_orders_bucketed_by_quarter",
    trigger="time zone: the quarter is taken from datetime.fromtimestamp(ts) in the local zone; orders near a quarter boundary in UTC move to the neighbouring quarter under TZ=XYZ+5, TZ=ABC-12 and Europe/Berlin",
    robust="time zone (UTC timestamps)",
    files={
"CID_revenue.py": r'''
"""Finance dashboard: revenue per calendar quarter; the books are kept in UTC."""
from collections import defaultdict
from datetime import datetime, timezone
from decimal import Decimal


def quarter(ts):
    d = datetime.fromtimestamp(ts)  #@F
    d = datetime.fromtimestamp(ts, tz=timezone.utc)  #@S
    return f"{d.year}-Q{(d.month - 1) // 3 + 1}"


def revenue_by_quarter(orders):
    out = defaultdict(Decimal)
    for ts, amount in orders:
        out[quarter(ts)] += Decimal(amount)
    return dict(out)
''',
"test_CID.py": r'''
from datetime import datetime, timezone

import CID_revenue as revenue


def utc(*args):
    return datetime(*args, tzinfo=timezone.utc).timestamp()


def test_orders_bucketed_by_quarter():
    orders = [
        (utc(2026, 2, 14, 12, 0), "120.00"),
        (utc(2026, 3, 31, 22, 30), "80.00"),   # late on the last day of Q1
        (utc(2026, 4, 1, 3, 0), "45.50"),      # early on the first day of Q2
        (utc(2026, 5, 20, 9, 15), "10.00"),
    ]
    assert revenue.revenue_by_quarter(orders) == {"2026-Q1": 200, "2026-Q2": 55.5}
''',
    }))

T.append(dict(
    topic="support_desk_hours", cls="time", test="test_desk_open_on_weekday_afternoon",
    trigger="time zone: opening hours are defined in UTC but checked on at.astimezone() (local); under TZ=ABC-12 15:00 UTC becomes 03:00 and the desk looks closed (UTC-5 and Berlin still fall inside the hours)",
    robust="time zone (astimezone(timezone.utc))",
    files={
"CID_desk.py": r'''
"""Support desk: chat is offered Monday-Friday 08:00-18:00 UTC."""
from datetime import timezone

OPEN_HOUR, CLOSE_HOUR = 8, 18


def is_open(at):
    local = at.astimezone()  #@F
    local = at.astimezone(timezone.utc)  #@S
    return local.weekday() < 5 and OPEN_HOUR <= local.hour < CLOSE_HOUR
''',
"test_CID.py": r'''
from datetime import datetime, timezone

import CID_desk as desk


def test_desk_open_on_weekday_afternoon():
    assert desk.is_open(datetime(2026, 12, 7, 15, 0, tzinfo=timezone.utc))      # Monday
    assert not desk.is_open(datetime(2026, 12, 5, 12, 0, tzinfo=timezone.utc))  # Saturday
''',
    }))
