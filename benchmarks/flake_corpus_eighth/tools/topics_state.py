# Order / pollution, hash-seed (str and bytes sets, dict-of-set orders) and unseeded-randomness topics.
# Lines ending in "#@F" exist only in the flaky twin, "#@S" only in the stable twin. "CID" -> case id.
T = []

# ---------------------------------------------------------------------------------------------- order
T.append(dict(
    topic="shipping_carrier_defaults", cls="order", test="test_default_carrier_is_dhl",
    trigger="victim: runs after test_bulky_goods_override (reversed, shuffled, twice); carrier_settings() returns the module's _DEFAULTS dict itself and update()s it with the overrides, so the freight override stays for the rest of the process",
    robust="test order, repetition (settings are a copy)",
    files={
"CID_shipping.py": r'''
"""Carrier settings for the checkout's shipping step."""
_DEFAULTS = {"carrier": "dhl", "insurance": False, "max_weight_kg": 31.5}


def carrier_settings(overrides=None):
    settings = _DEFAULTS  #@F
    settings = dict(_DEFAULTS)  #@S
    if overrides:
        settings.update(overrides)
    return settings
''',
"test_CID.py": r'''
import CID_shipping as shipping


def test_default_carrier_is_dhl():
    settings = shipping.carrier_settings()
    assert settings["carrier"] == "dhl"
    assert settings["max_weight_kg"] == 31.5


def test_bulky_goods_override():
    settings = shipping.carrier_settings({"carrier": "freight", "max_weight_kg": 1000})
    assert settings["carrier"] == "freight"
''',
    }))

T.append(dict(
    topic="newsletter_recipient_default", cls="order", test="test_single_recipient",
    trigger="victim and self-polluter: build_recipients(primary, cc=[]) has a mutable default list that every call without cc appends to; fails after test_digest_goes_to_editor (reversed, shuffled) and in the second copy under twice",
    robust="test order, repetition (cc=None default)",
    files={
"CID_mail.py": r'''
"""Recipient lists for the weekly newsletter."""


def build_recipients(primary, cc=[]):  #@F
def build_recipients(primary, cc=None):  #@S
    cc = [] if cc is None else list(cc)  #@S
    cc.append(primary)
    return cc
''',
"test_CID.py": r'''
import CID_mail as mail


def test_single_recipient():
    assert mail.build_recipients("reader@example.org") == ["reader@example.org"]


def test_digest_goes_to_editor():
    assert "editor@example.org" in mail.build_recipients("editor@example.org")


def test_cc_list_is_kept():
    assert mail.build_recipients("a@example.org", ["b@example.org"]) == ["b@example.org", "a@example.org"]
''',
    }))

T.append(dict(
    topic="support_ticket_sequence", cls="order", test="test_first_ticket_number",
    trigger="brittle/self-polluter: ticket numbers come from a module-level itertools.count, so 'T-0001' only holds if the judged test opens the first ticket of the process; fails reversed, shuffled (after test_reopen_keeps_number) and under twice",
    robust="test order, repetition (a counter per desk)",
    files={
"CID_desk.py": r'''
"""Help-desk tickets."""
import itertools

_numbers = itertools.count(1)  #@F


class TicketDesk:
    def __init__(self):
        self.tickets = {}
        self._numbers = itertools.count(1)  #@S

    def open(self, subject):
        number = f"T-{next(_numbers):04d}"  #@F
        number = f"T-{next(self._numbers):04d}"  #@S
        self.tickets[number] = {"subject": subject, "state": "open"}
        return number

    def close(self, number):
        self.tickets[number]["state"] = "closed"
''',
"test_CID.py": r'''
import CID_desk as desk


def test_first_ticket_number():
    d = desk.TicketDesk()
    assert d.open("printer on fire") == "T-0001"


def test_reopen_keeps_number():
    d = desk.TicketDesk()
    n = d.open("vpn down")
    d.close(n)
    d.tickets[n]["state"] = "open"
    assert d.tickets[n]["subject"] == "vpn down"
''',
    }))

T.append(dict(
    topic="user_profile_lru_cache", cls="order", test="test_new_profile_is_viewer",
    trigger="victim: load_profile() is functools.lru_cache'd and returns the cached dict itself; test_promote_to_admin appends 'admin' to its roles list, so after it (reversed, shuffled, twice) the cached profile has two roles",
    robust="test order, repetition (cache returns deep copies)",
    files={
"CID_profiles.py": r'''
"""User profiles, cached because the directory lookup is slow."""
import copy
import functools


@functools.lru_cache(maxsize=256)
def _lookup(user_id):
    return {"id": user_id, "name": f"user{user_id}", "roles": ["viewer"]}


def load_profile(user_id):
    return _lookup(user_id)  #@F
    return copy.deepcopy(_lookup(user_id))  #@S


def promote(user_id, role):
    profile = load_profile(user_id)
    profile["roles"].append(role)
    return profile
''',
"test_CID.py": r'''
import CID_profiles as profiles


def test_new_profile_is_viewer():
    assert profiles.load_profile(42)["roles"] == ["viewer"]


def test_promote_to_admin():
    assert "admin" in profiles.promote(42, "admin")["roles"]
''',
    }))

T.append(dict(
    topic="invoice_decimal_rounding_context", cls="order", test="test_vat_rounds_half_even",
    trigger="victim: money_total() sets decimal.getcontext().rounding = ROUND_HALF_UP for the whole thread instead of a local context; after test_invoice_total (reversed, shuffled, twice) 2.345 rounds to 2.35",
    robust="test order, repetition (decimal.localcontext)",
    files={
"CID_money.py": r'''
"""Invoice arithmetic."""
import decimal
from decimal import Decimal

CENT = Decimal("0.01")


def vat(amount, rate=Decimal("0.19")):
    return (Decimal(amount) * rate).quantize(CENT)


def money_total(lines):
    decimal.getcontext().rounding = decimal.ROUND_HALF_UP  #@F
    return sum(Decimal(x) for x in lines).quantize(CENT)  #@F
    with decimal.localcontext() as ctx:  #@S
        ctx.rounding = decimal.ROUND_HALF_UP  #@S
        return sum(Decimal(x) for x in lines).quantize(CENT)  #@S
''',
"test_CID.py": r'''
from decimal import Decimal

import CID_money as money


def test_vat_rounds_half_even():
    # 23.45 * 10 % = 2.345: the default context's banker's rounding gives 2.34 (the tax office's rule)
    assert money.vat("23.45", Decimal("0.10")) == Decimal("2.34")


def test_invoice_total():
    assert money.money_total(["1.005", "2.000"]) == Decimal("3.01")
''',
    }))

T.append(dict(
    topic="warehouse_stock_fixture", cls="order", test="test_catalog_lists_all_items",
    trigger="victim: the stock fixture is module-scoped and test_reserve_removes_item pops from the shared list; after it (reversed, shuffled, twice) the catalogue has two items",
    robust="test order, repetition (function-scoped fixture)",
    files={
"CID_stock.py": r'''
"""Warehouse stock."""


def load_stock():
    return [{"sku": "A-1", "qty": 4}, {"sku": "B-2", "qty": 0}, {"sku": "C-3", "qty": 9}]


def reserve(stock, sku):
    for i, item in enumerate(stock):
        if item["sku"] == sku:
            return stock.pop(i)
    raise KeyError(sku)
''',
"test_CID.py": r'''
import pytest

import CID_stock as stock_mod


@pytest.fixture(scope="module")  #@F
@pytest.fixture  #@S
def stock():
    return stock_mod.load_stock()


def test_catalog_lists_all_items(stock):
    assert [i["sku"] for i in stock] == ["A-1", "B-2", "C-3"]


def test_reserve_removes_item(stock):
    assert stock_mod.reserve(stock, "A-1")["qty"] == 4
    assert len(stock) == 2
''',
    }))

# ------------------------------------------------------------------------------------------ hash-seed
T.append(dict(
    topic="dependency_graph_export", cls="hash-seed", test="test_graph_json_golden",
    trigger="hash seed: the graph is a dict of str sets exported with list(set); the golden JSON holds one order of the 3 dependencies of 'web' (~5/6 of seeds give another)",
    robust="hash seed (sorted)",
    files={
"CID_graph.py": r'''
"""Service dependency graph, exported for the architecture docs."""
import json


def export_graph(deps):
    return json.dumps({name: list(d) for name, d in sorted(deps.items())})  #@F
    return json.dumps({name: sorted(d) for name, d in sorted(deps.items())})  #@S
''',
"test_CID.py": r'''
import CID_graph as graph


def test_graph_json_golden():
    deps = {"web": {"auth", "cache", "db"}, "auth": {"db"}, "db": set()}
    assert graph.export_graph(deps) == '{"auth": ["db"], "db": [], "web": ["auth", "cache", "db"]}'
''',
    }))

T.append(dict(
    topic="etag_bytes_chunks", cls="hash-seed", test="test_bundle_etag_is_stable",
    trigger="hash seed: the ETag hashes a set of bytes chunks in iteration order (bytes hashing is salted too); the recorded ETag matches one of the 2 orders (~1/2 of seeds)",
    robust="hash seed (chunks hashed sorted)",
    files={
"CID_etag.py": r'''
"""ETag for a bundle of static assets (deduplicated chunks)."""
import hashlib


def bundle_etag(chunks):
    unique = set(chunks)
    h = hashlib.sha256()
    for chunk in unique:  #@F
    for chunk in sorted(unique):  #@S
        h.update(chunk)
    return h.hexdigest()[:16]
''',
"test_CID.py": r'''
import hashlib

import CID_etag as etag

RECORDED = hashlib.sha256(b"body{color:red}" + b"h1{margin:0}").hexdigest()[:16]


def test_bundle_etag_is_stable():
    assert etag.bundle_etag([b"h1{margin:0}", b"body{color:red}", b"h1{margin:0}"]) == RECORDED
''',
    }))

T.append(dict(
    topic="acl_group_members_diff", cls="hash-seed", test="test_removed_members_listed",
    trigger="hash seed: removed members = list(old - new), a str set difference, compared with a list (~1/2 of seeds)",
    robust="hash seed (sorted difference)",
    files={
"CID_acl.py": r'''
"""Group membership sync against the HR directory."""


def membership_diff(old, new):
    old, new = set(old), set(new)
    return {"added": list(new - old), "removed": list(old - new)}  #@F
    return {"added": sorted(new - old), "removed": sorted(old - new)}  #@S
''',
"test_CID.py": r'''
import CID_acl as acl


def test_removed_members_listed():
    diff = acl.membership_diff(["alice", "bob", "carol", "dave"], ["alice", "bob", "erin"])
    assert diff["added"] == ["erin"]
    assert diff["removed"] == ["carol", "dave"]
''',
    }))

T.append(dict(
    topic="email_domain_shard", cls="hash-seed", test="test_tenants_on_different_shards",
    trigger="hash seed: shard = hash(domain) % 4 with the salted built-in str hash; the two tenants' domains collide in ~1/4 of seeds",
    robust="hash seed (crc32 of the domain)",
    files={
"CID_shard.py": r'''
"""Mailbox sharding by e-mail domain."""
import zlib

SHARDS = 4


def shard_for(domain):
    return hash(domain.lower()) % SHARDS  #@F
    return zlib.crc32(domain.lower().encode()) % SHARDS  #@S
''',
"test_CID.py": r'''
import CID_shard as shard


def test_tenants_on_different_shards():
    # the two biggest tenants must not share a shard (capacity plan)
    assert shard.shard_for("acme-corp.example") != shard.shard_for("globex.example")
''',
    }))

T.append(dict(
    topic="tag_cloud_top_tags", cls="hash-seed", test="test_top_two_tags",
    trigger="hash seed: tags are sorted by count from a set, so ties keep set order; 'go' and 'rust' tie for second place (~1/2 of seeds pick 'rust')",
    robust="hash seed (ties broken by name)",
    files={
"CID_tags.py": r'''
"""Tag cloud for the blog sidebar."""
import collections


def top_tags(posts, n):
    counts = collections.Counter(t for p in posts for t in p["tags"])
    return sorted(set(counts), key=lambda t: -counts[t])[:n]  #@F
    return sorted(counts, key=lambda t: (-counts[t], t))[:n]  #@S
''',
"test_CID.py": r'''
import CID_tags as tags

POSTS = [{"tags": ["python", "go"]}, {"tags": ["python", "rust"]}, {"tags": ["python", "zig"]},
         {"tags": ["go", "rust"]}]


def test_top_two_tags():
    assert tags.top_tags(POSTS, 2) == ["python", "go"]
''',
    }))

T.append(dict(
    topic="permissions_matrix_csv", cls="hash-seed", test="test_matrix_csv_golden",
    trigger="hash seed: a dict of str sets (role -> permissions) rendered with '|'.join(set); roles are sorted but the permissions of 'editor' (2) and 'admin' (3) are in set order (~11/12 of seeds give another text)",
    robust="hash seed (permissions sorted)",
    files={
"CID_matrix.py": r'''
"""Role/permission matrix export for the compliance review."""


def matrix(grants):
    roles = {}
    for role, perm in grants:
        roles.setdefault(role, set()).add(perm)
    return roles


def to_csv(roles):
    return "\n".join(f"{role},{'|'.join(perms)}" for role, perms in sorted(roles.items()))  #@F
    return "\n".join(f"{role},{'|'.join(sorted(perms))}" for role, perms in sorted(roles.items()))  #@S
''',
"test_CID.py": r'''
import CID_matrix as m

GRANTS = [("viewer", "read"), ("editor", "read"), ("editor", "write"), ("admin", "read"),
          ("admin", "write"), ("admin", "delete"), ("editor", "read")]


def test_matrix_csv_golden():
    assert m.to_csv(m.matrix(GRANTS)) == "admin,delete|read|write\neditor,read|write\nviewer,read"
''',
    }))

# --------------------------------------------------------------------------------------------- random
T.append(dict(
    topic="otp_code_digits", cls="random", test="test_codes_have_six_digits",
    trigger="unseeded randomness: str(randrange(10**6)) is not zero-padded; each of the 2 codes is shorter than 6 digits with p=0.1 (~19% of runs)",
    robust="any random state (zero-padded format)",
    files={
"CID_otp.py": r'''
"""One-time codes for the login second factor."""
import secrets


def new_code():
    return str(secrets.randbelow(10**6))  #@F
    return f"{secrets.randbelow(10**6):06d}"  #@S
''',
"test_CID.py": r'''
import CID_otp as otp


def test_codes_have_six_digits():
    for _ in range(2):
        code = otp.new_code()
        assert len(code) == 6 and code.isdigit(), code
''',
    }))

T.append(dict(
    topic="captcha_ambiguous_chars", cls="random", test="test_captcha_has_no_ambiguous_chars",
    trigger="unseeded randomness: 5 characters drawn from A-Z0-9 including 'O' and '0'; the test forbids those two (~25% of runs contain one)",
    robust="any random state (alphabet without O and 0)",
    files={
"CID_captcha.py": r'''
"""Text captcha for the guest comment form."""
import random
import string

ALPHABET = string.ascii_uppercase + string.digits  #@F
ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "O0")  #@S


def captcha_text(n=5):
    return "".join(random.choice(ALPHABET) for _ in range(n))
''',
"test_CID.py": r'''
import CID_captcha as captcha


def test_captcha_has_no_ambiguous_chars():
    text = captcha.captcha_text()
    assert len(text) == 5
    assert not set(text) & set("O0"), text
''',
    }))

T.append(dict(
    topic="ab_test_split_ratio", cls="random", test="test_split_is_roughly_even",
    trigger="unseeded randomness: 200 users assigned with random.random() < 0.5; the test wants 90-110 in arm A, which a fair coin misses in ~15% of runs",
    robust="any random state (assignment by a hash of experiment and user id)",
    files={
"CID_ab.py": r'''
"""A/B experiment assignment."""
import hashlib
import random


def arm(experiment, user_id):
    return "A" if random.random() < 0.5 else "B"  #@F
    digest = hashlib.sha256(f"{experiment}:{user_id}".encode()).digest()  #@S
    return "A" if digest[0] < 128 else "B"  #@S
''',
"test_CID.py": r'''
import CID_ab as ab


def test_split_is_roughly_even():
    arms = [ab.arm("pricing-page", uid) for uid in range(200)]
    assert 90 <= arms.count("A") <= 110, arms.count("A")
''',
    }))
