# random, hash-seed/unordered and float topics.
T = []

T.append(dict(
    topic="ab_bucketing", cls="random", test="test_split_is_roughly_even",
    trigger="unseeded random.random() per user: the A bucket of 100 users falls outside 42..58 in ~9% of runs",
    robust="random seed, hash seed",
    files={
"CID_experiments.py": r'''
import random
import zlib


def assign(user_id, split=0.5):
    """Assign a user to experiment arm A or B."""
    return "A" if random.random() < split else "B"  #@F
    bucket = zlib.crc32(f"checkout-v2:{user_id}".encode()) % 1000  #@S
    return "A" if bucket < split * 1000 else "B"  #@S
''',
"test_CID.py": r'''
from collections import Counter

from CID_experiments import assign


def test_split_is_roughly_even():
    arms = Counter(assign(f"user-{i}") for i in range(100))
    assert 42 <= arms["A"] <= 58
'''}))

T.append(dict(
    topic="retry_jitter", cls="random", test="test_total_backoff_within_budget",
    trigger="unseeded jitter added on top of the exponential delay: the sum of 5 delays exceeds the 5.3 s budget in ~12% of runs",
    robust="random seed",
    files={
"CID_backoff.py": r'''
import random


def delays(attempts, base=0.1, cap=2.0, rng=random):
    out = []
    for i in range(attempts):
        d = min(cap, base * 2 ** i)
        out.append(d + rng.uniform(0, d))  #@F
        out.append(rng.uniform(d / 2, d))  #@S
    return out
''',
"test_CID.py": r'''
from CID_backoff import delays


def test_total_backoff_within_budget():
    schedule = delays(5)
    assert len(schedule) == 5
    assert sum(schedule) <= 5.3
'''}))

T.append(dict(
    topic="preview_sample", cls="random", test="test_preview_shows_an_invalid_row",
    trigger="unseeded random.sample of 5 preview rows out of 50 (20 invalid) contains no invalid row in ~7% of runs",
    robust="random seed",
    files={
"CID_quality.py": r'''
import random


def validate(row):
    return "@" in row["email"]


def preview(rows, k=5):
    """Rows shown in the import wizard."""
    return random.sample(rows, k)  #@F
    bad = [r for r in rows if not validate(r)]  #@S
    good = [r for r in rows if validate(r)]  #@S
    picked = bad[:2]  #@S
    return picked + random.sample(good, k - len(picked))  #@S
''',
"test_CID.py": r'''
from CID_quality import preview, validate

ROWS = [{"email": f"user{i}@example.com" if i % 5 > 1 else f"user{i}.example.com"} for i in range(50)]


def test_preview_shows_an_invalid_row():
    shown = preview(ROWS)
    assert len(shown) == 5
    assert any(not validate(r) for r in shown)
'''}))

T.append(dict(
    topic="load_shedder", cls="random", test="test_light_overload_drops_few_requests",
    trigger="probabilistic shedding (p=0.1, unseeded) drops 4 or more of 20 requests in ~13% of runs",
    robust="random seed",
    files={
"CID_shed.py": r'''
import random


class LoadShedder:
    def __init__(self, drop_ratio):
        self.drop_ratio = drop_ratio
        self.seen = 0

    def admit(self):
        self.seen += 1
        return random.random() >= self.drop_ratio  #@F
        return self.seen % round(1 / self.drop_ratio) != 0  #@S
''',
"test_CID.py": r'''
from CID_shed import LoadShedder


def test_light_overload_drops_few_requests():
    shedder = LoadShedder(drop_ratio=0.1)
    dropped = sum(not shedder.admit() for _ in range(20))
    assert dropped <= 3
'''}))

T.append(dict(
    topic="playlist_shuffle", cls="random", test="test_next_queue_does_not_repeat_last_track",
    trigger="unseeded shuffle of 8 tracks puts the last played track first in ~12.5% of runs",
    robust="random seed",
    files={
"CID_player.py": r'''
import random


def next_queue(tracks, last_played):
    queue = list(tracks)
    random.shuffle(queue)
    if queue[0] == last_played:  #@S
        swap = random.randrange(1, len(queue))  #@S
        queue[0], queue[swap] = queue[swap], queue[0]  #@S
    return queue
''',
"test_CID.py": r'''
from CID_player import next_queue

TRACKS = [f"track-{i:02d}" for i in range(8)]


def test_next_queue_does_not_repeat_last_track():
    queue = next_queue(TRACKS, last_played="track-03")
    assert sorted(queue) == TRACKS
    assert queue[0] != "track-03"
'''}))

T.append(dict(
    topic="trace_sampling", cls="random", test="test_sampled_spans_reach_exporter",
    trigger="head sampling with unseeded random() at rate 0.2: none of 12 traces is sampled in ~7% of runs",
    robust="random seed",
    files={
"CID_tracing.py": r'''
import random
import zlib


class Tracer:
    def __init__(self, exporter, rate):
        self.exporter = exporter
        self.rate = rate

    def sampled(self, trace_id):
        return random.random() < self.rate  #@F
        return zlib.crc32(trace_id.encode()) % 10000 < self.rate * 10000  #@S

    def finish(self, trace_id, name):
        if self.sampled(trace_id):
            self.exporter.append((trace_id, name))
''',
"test_CID.py": r'''
from CID_tracing import Tracer


def test_sampled_spans_reach_exporter():
    exported = []
    tracer = Tracer(exported, rate=0.2)
    for i in range(12):
        tracer.finish(f"trace-{i:04d}", "GET /cart")
    assert exported, "expected at least one sampled span"
'''}))

T.append(dict(
    topic="invite_code", cls="random", test="test_invite_code_has_no_ambiguous_characters",
    trigger="unseeded 4-character code drawn from an alphabet that still contains 'O': an ambiguous character appears in ~11% of runs",
    robust="random seed",
    files={
"CID_invites.py": r'''
import secrets

ALPHABET = "ABCDEFGHJKLMNOPQRSTUVWXYZ23456789"  #@F
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  #@S
AMBIGUOUS = set("O0I1")


def new_code(length=4):
    return "".join(secrets.choice(ALPHABET) for _ in range(length))
''',
"test_CID.py": r'''
from CID_invites import AMBIGUOUS, new_code


def test_invite_code_has_no_ambiguous_characters():
    code = new_code()
    assert len(code) == 4
    assert not (set(code) & AMBIGUOUS), code
'''}))

# ---------------------------------------------------------------- hash seed / unordered
T.append(dict(
    topic="csv_header_columns", cls="hash-seed", test="test_export_header_is_stable",
    trigger="header columns after 'id' come from a set of str keys; their order follows PYTHONHASHSEED (fails ~50% of processes)",
    robust="hash seed",
    files={
"CID_csvexport.py": r'''
import csv
import io


def to_csv(records):
    extra = {key for record in records for key in record} - {"id"}
    columns = ["id"] + list(extra)  #@F
    columns = ["id"] + sorted(extra)  #@S
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return buf.getvalue()
''',
"test_CID.py": r'''
from CID_csvexport import to_csv


def test_export_header_is_stable():
    out = to_csv([{"id": 1, "email": "a@x.test"}, {"id": 2, "name": "Bo"}])
    assert out.splitlines()[0] == "id,email,name"
'''}))

T.append(dict(
    topic="replica_pick", cls="hash-seed", test="test_read_goes_to_a_fast_replica",
    trigger="the replica is next(iter(set_of_names)); which of 8 names comes first follows PYTHONHASHSEED, and 1 of 8 replicas is slow (fails ~1 in 8 processes)",
    robust="hash seed",
    files={
"CID_replicas.py": r'''
LATENCY_MS = {
    "db-us-1": 4, "db-us-2": 5, "db-us-3": 6, "db-eu-1": 9,
    "db-eu-2": 11, "db-eu-3": 480, "db-ap-1": 14, "db-ap-2": 15,
}


def healthy_replicas(down=()):
    return set(LATENCY_MS) - set(down)


def pick_replica(down=()):
    candidates = healthy_replicas(down)
    return next(iter(candidates))  #@F
    return min(candidates, key=LATENCY_MS.__getitem__)  #@S
''',
"test_CID.py": r'''
from CID_replicas import LATENCY_MS, pick_replica


def test_read_goes_to_a_fast_replica():
    replica = pick_replica(down=["db-us-2"])
    assert LATENCY_MS[replica] < 100, replica
'''}))

T.append(dict(
    topic="roles_snapshot", cls="hash-seed", test="test_user_payload_matches_snapshot",
    trigger="roles serialized as list(set_of_str) compared with a committed JSON snapshot; the order follows PYTHONHASHSEED (fails ~5 in 6 processes)",
    robust="hash seed",
    files={
"CID_users.py": r'''
import json


class User:
    def __init__(self, name, roles):
        self.name = name
        self.roles = set(roles)

    def to_json(self):
        return json.dumps({"name": self.name, "roles": list(self.roles)}, indent=2)  #@F
        return json.dumps({"name": self.name, "roles": sorted(self.roles)}, indent=2)  #@S
''',
"CID_snapshot.json": '{\n  "name": "grace",\n  "roles": [\n    "admin",\n    "billing",\n    "editor"\n  ]\n}\n',
"test_CID.py": r'''
import pathlib

from CID_users import User

SNAPSHOT = pathlib.Path(__file__).with_name("CID_snapshot.json")


def test_user_payload_matches_snapshot():
    user = User("grace", ["editor", "admin", "billing", "admin"])
    assert user.to_json() + "\n" == SNAPSHOT.read_text()
'''}))

T.append(dict(
    topic="job_runner_setpop", cls="hash-seed", test="test_report_job_not_run_first",
    trigger="jobs are popped from a set of 10 str names; the report job (which needs the others' data) comes first in ~1 of 10 hash seeds",
    robust="hash seed",
    files={
"CID_runner.py": r'''
JOBS = {
    "fetch_orders", "fetch_refunds", "fetch_payouts", "sync_stock", "sync_prices",
    "rebuild_search", "expire_carts", "rotate_logs", "compact_db", "send_daily_report",
}
LAST = {"send_daily_report"}


def run_all(jobs):
    pending = set(jobs)
    log = []
    while pending:
        job = pending.pop()  #@F
        job = min(pending, key=lambda j: (j in LAST, j))  #@S
        pending.discard(job)  #@S
        log.append(job)
    return log
''',
"test_CID.py": r'''
from CID_runner import JOBS, run_all


def test_report_job_not_run_first():
    log = run_all(JOBS)
    assert sorted(log) == sorted(JOBS)
    assert log[0] != "send_daily_report"
'''}))

T.append(dict(
    topic="email_dedupe", cls="hash-seed", test="test_dedupe_keeps_first_spelling",
    trigger="case-insensitive dedupe iterates a set of str, so which spelling of a duplicate survives follows PYTHONHASHSEED (fails ~50% of processes)",
    robust="hash seed",
    files={
"CID_contacts.py": r'''
def dedupe(emails):
    kept = {}
    for email in set(emails):  #@F
    for email in emails:  #@S
        kept.setdefault(email.lower(), email)
    return sorted(kept.values(), key=str.lower)
''',
"test_CID.py": r'''
from CID_contacts import dedupe


def test_dedupe_keeps_first_spelling():
    emails = ["Grace.Hopper@Navy.test", "alan@bletchley.test", "grace.hopper@navy.test"]
    assert dedupe(emails) == ["alan@bletchley.test", "Grace.Hopper@Navy.test"]
'''}))

# ---------------------------------------------------------------- float
T.append(dict(
    topic="invoice_tax_rounding", cls="float", test="test_invoice_total_matches_accounting",
    trigger="float round(sum*1.1, 2) on randomly picked catalog items differs by a cent from Decimal ROUND_HALF_UP for ~8% of baskets",
    robust="random seed",
    files={
"CID_invoice.py": r'''
import random
from decimal import ROUND_HALF_UP, Decimal

CATALOG = [1.15, 2.35, 4.45, 0.85, 9.99, 12.50, 3.05, 7.25]
TAX = "1.1"


def random_basket(k=3):
    return random.choices(CATALOG, k=k)


def invoice_total(prices):
    return round(sum(prices) * float(TAX), 2)  #@F
    total = sum(Decimal(str(p)) for p in prices) * Decimal(TAX)  #@S
    return float(total.quantize(Decimal("0.01"), ROUND_HALF_UP))  #@S


def accounting_total(prices):
    total = sum(Decimal(str(p)) for p in prices) * Decimal(TAX)
    return float(total.quantize(Decimal("0.01"), ROUND_HALF_UP))
''',
"test_CID.py": r'''
from CID_invoice import accounting_total, invoice_total, random_basket


def test_invoice_total_matches_accounting():
    basket = random_basket()
    assert invoice_total(basket) == accounting_total(basket), basket
'''}))

T.append(dict(
    topic="percent_shares", cls="float", test="test_shares_add_up_to_100",
    trigger="independently rounded percentages of random vote counts do not add up to 100 in ~26% of runs",
    robust="random seed",
    files={
"CID_poll.py": r'''
import random


def random_votes():
    return {"yes": random.randint(1, 50), "no": random.randint(1, 50), "abstain": random.randint(1, 50)}


def shares(votes):
    total = sum(votes.values())
    return {k: round(100 * v / total) for k, v in votes.items()}  #@F
    exact = {k: 100 * v / total for k, v in votes.items()}  #@S
    out = {k: int(x) for k, x in exact.items()}  #@S
    for k in sorted(exact, key=lambda k: exact[k] - out[k], reverse=True)[: 100 - sum(out.values())]:  #@S
        out[k] += 1  #@S
    return out  #@S
''',
"test_CID.py": r'''
from CID_poll import random_votes, shares


def test_shares_add_up_to_100():
    votes = random_votes()
    assert sum(shares(votes).values()) == 100, votes
'''}))

T.append(dict(
    topic="running_mean", cls="float", test="test_streaming_mean_matches_batch_mean",
    trigger="incremental float mean of 40 unseeded readings compared with sum/len under a 2e-14 absolute tolerance: rounding error exceeds it in ~12% of runs",
    robust="random seed",
    files={
"CID_stats.py": r'''
import math
import random


class StreamingMean:
    def __init__(self):
        self.n = 0
        self.mean = 0.0

    def add(self, x):
        self.n += 1
        self.mean += (x - self.mean) / self.n


def readings(n=40):
    return [random.uniform(0, 100) for _ in range(n)]


def close_enough(a, b):
    return abs(a - b) <= 2e-14  #@F
    return math.isclose(a, b, rel_tol=1e-9)  #@S
''',
"test_CID.py": r'''
from CID_stats import StreamingMean, close_enough, readings


def test_streaming_mean_matches_batch_mean():
    xs = readings()
    m = StreamingMean()
    for x in xs:
        m.add(x)
    assert close_enough(m.mean, sum(xs) / len(xs))
'''}))
