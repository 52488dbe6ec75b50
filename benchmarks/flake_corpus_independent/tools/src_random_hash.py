CASES = []

def add(topic, cls, trigger, judged, notes_f, notes_s, flaky, stable, extra=None, modes="plain", trigger_env=None):
    CASES.append(dict(topic=topic, cls=cls, trigger=trigger, judged=judged, notes_f=notes_f,
                      notes_s=notes_s, flaky=flaky, stable=stable, extra=extra or {}, modes=modes,
                      trigger_env=trigger_env))

add("invite_codes", "random", "unseeded random (birthday collision, ~8% per run)", "test_invite_codes_unique",
    "40 codes drawn with random.randint(1000, 9999) without de-duplication; P(collision) ~ 8%.",
    "Codes drawn with random.sample over the same range, so they are distinct by construction.",
'''
import random


def generate_invite_codes(n):
    return [str(random.randint(1000, 9999)) for _ in range(n)]


def test_invite_codes_unique():
    codes = generate_invite_codes(40)
    assert all(len(c) == 4 for c in codes)
    assert len(set(codes)) == len(codes)
''',
'''
import random


def generate_invite_codes(n):
    return [str(c) for c in random.sample(range(1000, 10000), n)]


def test_invite_codes_unique():
    codes = generate_invite_codes(40)
    assert all(len(c) == 4 for c in codes)
    assert len(set(codes)) == len(codes)
''')

add("basket_total", "random", "random.shuffle order of float addition (~10% of orders round differently)",
    "test_total_independent_of_order",
    "Shuffles float prices and compares sum() exactly; 12 of 120 orders give 24.619999999999997.",
    "Same shuffle, but the total uses math.fsum, which is correctly rounded and order independent.",
'''
import random

PRICES = [0.3, 1.25, 3.3, 12.0, 7.77]


def basket_total(prices):
    return sum(prices)


def test_total_independent_of_order():
    items = PRICES[:]
    random.shuffle(items)
    assert basket_total(items) == basket_total(PRICES)
''',
'''
import math
import random

PRICES = [0.3, 1.25, 3.3, 12.0, 7.77]


def basket_total(prices):
    return math.fsum(prices)


def test_total_independent_of_order():
    items = PRICES[:]
    random.shuffle(items)
    assert basket_total(items) == basket_total(PRICES)
''')

add("short_refs", "random", "uuid4 truncated to 4 hex digits (collision ~5% for 80 refs)", "test_batch_refs_unique",
    "Display references are uuid4().hex[:4]; 80 refs in a 65536 space collide ~4.7% of runs.",
    "References use the full uuid4 hex (collision probability ~1e-34).",
'''
import uuid


def make_ref():
    return uuid.uuid4().hex[:4].upper()


def test_batch_refs_unique():
    refs = [make_ref() for _ in range(80)]
    assert len(set(refs)) == 80
''',
'''
import uuid


def make_ref():
    return uuid.uuid4().hex.upper()


def test_batch_refs_unique():
    refs = [make_ref() for _ in range(80)]
    assert len(set(refs)) == 80
''')

add("share_slug", "random", "secrets.token_urlsafe may contain '-' (~6% per run)", "test_slug_roundtrip",
    "Slug suffix from token_urlsafe(3) (4 chars of a 64-symbol alphabet incl. '-'); rpartition('-') then splits inside the token.",
    "Suffix from token_hex(3), which never contains the separator.",
'''
import re
import secrets


def make_share_slug(title):
    base = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return f"{base}-{secrets.token_urlsafe(3)}"


def parse_share_slug(slug):
    base, _, token = slug.rpartition("-")
    return base, token


def test_slug_roundtrip():
    slug = make_share_slug("Quarterly Report")
    base, token = parse_share_slug(slug)
    assert base == "quarterly-report"
    assert len(token) == 4
''',
'''
import re
import secrets


def make_share_slug(title):
    base = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return f"{base}-{secrets.token_hex(3)}"


def parse_share_slug(slug):
    base, _, token = slug.rpartition("-")
    return base, token


def test_slug_roundtrip():
    slug = make_share_slug("Quarterly Report")
    base, token = parse_share_slug(slug)
    assert base == "quarterly-report"
    assert len(token) == 6
''')

add("frame_codec", "random", "os.urandom nonce may contain the b'\\n' delimiter (~9% per run)", "test_roundtrip_two_frames",
    "Frames are nonce(12 random bytes)+payload+newline and the decoder splits on newline; 24 random bytes contain 0x0a ~9% of the time.",
    "Nonce is hex-encoded before framing, so it can never contain the delimiter.",
'''
import os

NONCE = 12


def encode_frame(payload):
    return os.urandom(NONCE) + payload + b"\\n"


def decode_stream(data):
    return [frame[NONCE:] for frame in data.split(b"\\n") if frame]


def test_roundtrip_two_frames():
    data = encode_frame(b"hello") + encode_frame(b"world")
    assert decode_stream(data) == [b"hello", b"world"]
''',
'''
import os

NONCE = 12


def encode_frame(payload):
    return os.urandom(NONCE).hex().encode() + payload + b"\\n"


def decode_stream(data):
    return [frame[2 * NONCE:] for frame in data.split(b"\\n") if frame]


def test_roundtrip_two_frames():
    data = encode_frame(b"hello") + encode_frame(b"world")
    assert decode_stream(data) == [b"hello", b"world"]
''')

add("retry_jitter", "random", "unseeded statistical assertion (mean of 100 samples outside +-5%, ~8%)", "test_jitter_is_centered",
    "Mean of 100 jittered delays must be within 5% of base; the standard error is 2.9%, so ~8% of runs fall outside.",
    "Same statistical check with an injected, seeded random.Random, so the sample is fixed.",
'''
import random


def jittered_delay(base):
    return base * (0.5 + random.random())


def test_jitter_is_centered():
    delays = [jittered_delay(1.0) for _ in range(100)]
    mean = sum(delays) / len(delays)
    assert 0.95 <= mean <= 1.05
    assert all(0.5 <= d < 1.5 for d in delays)
''',
'''
import random


def jittered_delay(base, rng=random):
    return base * (0.5 + rng.random())


def test_jitter_is_centered():
    rng = random.Random(20240611)
    delays = [jittered_delay(1.0, rng) for _ in range(100)]
    mean = sum(delays) / len(delays)
    assert 0.95 <= mean <= 1.05
    assert all(0.5 <= d < 1.5 for d in delays)
''')

add("pick_reviewer", "random", "random.choice can return the author (1 in 12)", "test_reviewer_is_not_author",
    "The reviewer is chosen from active team members but the author is not excluded; 1/12 of runs pick the author.",
    "Candidates exclude the author before random.choice.",
'''
import random
from dataclasses import dataclass


@dataclass
class Member:
    login: str
    active: bool = True


TEAM = [Member(n) for n in "ana ben cai dev eli fay gus hal ivy jon kim lea".split()]


def pick_reviewer(team, author):
    candidates = [m for m in team if m.active]
    return random.choice(candidates).login


def test_reviewer_is_not_author():
    reviewer = pick_reviewer(TEAM, author="cai")
    assert reviewer in {m.login for m in TEAM}
    assert reviewer != "cai"
''',
'''
import random
from dataclasses import dataclass


@dataclass
class Member:
    login: str
    active: bool = True


TEAM = [Member(n) for n in "ana ben cai dev eli fay gus hal ivy jon kim lea".split()]


def pick_reviewer(team, author):
    candidates = [m for m in team if m.active and m.login != author]
    return random.choice(candidates).login


def test_reviewer_is_not_author():
    reviewer = pick_reviewer(TEAM, author="cai")
    assert reviewer in {m.login for m in TEAM}
    assert reviewer != "cai"
''')

# ---------------- hash seed ----------------
add("cli_tags_join", "hash-seed", "PYTHONHASHSEED (set-of-str iteration order, 3 items)", "test_render_tags",
    "Tags de-duplicated through set() and joined; expected string assumes one of 6 orders.",
    "Same de-duplication, joined in sorted order.",
'''
def render_tags(tags):
    return ", ".join(set(tags))


def test_render_tags():
    assert render_tags(["python", "ci", "testing", "ci"]) == "ci, python, testing"
''',
'''
def render_tags(tags):
    return ", ".join(sorted(set(tags)))


def test_render_tags():
    assert render_tags(["python", "ci", "testing", "ci"]) == "ci, python, testing"
''')

add("word_counts_json", "hash-seed", "PYTHONHASHSEED (dict built from a set of str, 2 keys)", "test_counts_json",
    "dict.fromkeys(set(words)) fixes key order by hash; the JSON snapshot assumes one order (50%).",
    "Same dict from a set, but serialised with sort_keys=True.",
'''
import json


def word_counts(words):
    counts = dict.fromkeys(set(words), 0)
    for w in words:
        counts[w] += 1
    return counts


def test_counts_json():
    assert json.dumps(word_counts(["red", "blue", "red"])) == '{"red": 2, "blue": 1}'
''',
'''
import json


def word_counts(words):
    counts = dict.fromkeys(set(words), 0)
    for w in words:
        counts[w] += 1
    return counts


def test_counts_json():
    assert json.dumps(word_counts(["red", "blue", "red"]), sort_keys=True) == '{"blue": 1, "red": 2}'
''')

add("locale_fallback", "hash-seed", "PYTHONHASHSEED (first element of a 15-string set, ~1/15)", "test_fallback_locale_has_region",
    "Fallback is next(iter(available)) over a set of 15 locales; one of them ('fil') has no region, so ~7% of seeds fail.",
    "Fallback is min(available) - deterministic regardless of hash seed.",
'''
AVAILABLE = {
    "de-DE", "en-GB", "en-US", "es-ES", "fr-FR", "it-IT", "ja-JP", "ko-KR",
    "nl-NL", "pl-PL", "pt-BR", "sv-SE", "tr-TR", "zh-CN", "fil",
}


def choose_locale(preferred, available):
    for loc in preferred:
        if loc in available:
            return loc
    return next(iter(available))


def test_fallback_locale_has_region():
    loc = choose_locale(["xx-YY"], AVAILABLE)
    lang, region = loc.split("-")
    assert lang.islower() and region.isupper()
''',
'''
AVAILABLE = {
    "de-DE", "en-GB", "en-US", "es-ES", "fr-FR", "it-IT", "ja-JP", "ko-KR",
    "nl-NL", "pl-PL", "pt-BR", "sv-SE", "tr-TR", "zh-CN", "fil",
}


def choose_locale(preferred, available):
    for loc in preferred:
        if loc in available:
            return loc
    return min(available)


def test_fallback_locale_has_region():
    loc = choose_locale(["xx-YY"], AVAILABLE)
    lang, region = loc.split("-")
    assert lang.islower() and region.isupper()
''')

add("leaderboard_ties", "hash-seed", "PYTHONHASHSEED (stable sort keeps set order for tied scores)", "test_top_three",
    "Players come from a set and are sorted by score; two players tie, so their relative order follows the hash seed.",
    "Sort key breaks ties by name.",
'''
SCORES = {"kai": 91, "mia": 87, "noa": 87, "lev": 70, "ola": 65}


def top(players, n):
    return sorted(set(players), key=lambda p: SCORES[p], reverse=True)[:n]


def test_top_three():
    assert top(["mia", "kai", "noa", "lev", "ola", "kai"], 3) == ["kai", "mia", "noa"]
''',
'''
SCORES = {"kai": 91, "mia": 87, "noa": 87, "lev": 70, "ola": 65}


def top(players, n):
    return sorted(set(players), key=lambda p: (-SCORES[p], p))[:n]


def test_top_three():
    assert top(["mia", "kai", "noa", "lev", "ola", "kai"], 3) == ["kai", "mia", "noa"]
''')

add("unknown_options", "hash-seed", "PYTHONHASHSEED (error message lists a set difference)", "test_unknown_options_message",
    "The error message joins set(given) - set(allowed); the test pins one of two orders.",
    "Message joins sorted(...) of the difference.",
'''
import pytest

ALLOWED = {"color", "width", "height"}


def validate(opts):
    unknown = set(opts) - ALLOWED
    if unknown:
        raise ValueError("unknown options: " + ", ".join(unknown))


def test_unknown_options_message():
    with pytest.raises(ValueError) as exc:
        validate({"colour": "red", "width": 3, "verbose": True})
    assert str(exc.value) == "unknown options: colour, verbose"
''',
'''
import pytest

ALLOWED = {"color", "width", "height"}


def validate(opts):
    unknown = set(opts) - ALLOWED
    if unknown:
        raise ValueError("unknown options: " + ", ".join(sorted(unknown)))


def test_unknown_options_message():
    with pytest.raises(ValueError) as exc:
        validate({"colour": "red", "width": 3, "verbose": True})
    assert str(exc.value) == "unknown options: colour, verbose"
''')

add("queue_scheduler", "hash-seed", "PYTHONHASHSEED (set.pop() of 10 queue names, ~1/10)", "test_next_queue_skips_paused",
    "Scheduler pops an arbitrary queue from a set of 10 names and forgets to skip paused ones; 1 of 10 is paused.",
    "Paused queues are filtered out before choosing, and the choice is min() of the rest.",
'''
PENDING = {"emails", "thumbnails", "billing", "exports", "search-index",
           "webhooks", "reports", "cleanup", "imports", "audit"}
PAUSED = {"billing"}


def next_queue(pending, paused):
    pending = set(pending)
    return pending.pop()


def test_next_queue_skips_paused():
    q = next_queue(PENDING, PAUSED)
    assert q in PENDING
    assert q not in PAUSED
''',
'''
PENDING = {"emails", "thumbnails", "billing", "exports", "search-index",
           "webhooks", "reports", "cleanup", "imports", "audit"}
PAUSED = {"billing"}


def next_queue(pending, paused):
    ready = set(pending) - set(paused)
    return min(ready)


def test_next_queue_skips_paused():
    q = next_queue(PENDING, PAUSED)
    assert q in PENDING
    assert q not in PAUSED
''')

add("cart_total_hash", "hash-seed", "PYTHONHASHSEED (float sum over dict built from a set of str, ~15%)", "test_cart_total",
    "Prices are summed in the iteration order of a dict keyed by a set of product names; 18/120 orders give 35.199999999999996.",
    "Same dict, summed with math.fsum (order independent) and rounded to cents.",
'''
PRICES = {"lamp": 4.99, "desk": 12.0, "chair": 7.77, "pen": 0.45, "shelf": 9.99}


def cart(products):
    return {p: PRICES[p] for p in set(products)}


def cart_total(c):
    return sum(c.values())


def test_cart_total():
    c = cart(["lamp", "desk", "chair", "pen", "shelf", "pen"])
    assert cart_total(c) == 35.2
''',
'''
import math

PRICES = {"lamp": 4.99, "desk": 12.0, "chair": 7.77, "pen": 0.45, "shelf": 9.99}


def cart(products):
    return {p: PRICES[p] for p in set(products)}


def cart_total(c):
    return round(math.fsum(c.values()), 2)


def test_cart_total():
    c = cart(["lamp", "desk", "chair", "pen", "shelf", "pen"])
    assert cart_total(c) == 35.2
''')
