"""The replay plan: how each replay differs on purpose (hash seed, order, zone, random seed, repeats).

Replays are cheap only inside one process (interpreter start dominates), so the plan spends processes
on what cannot vary in-process (the hash seed and the time zone, fixed at start) and varies the rest
inside each process: every replay runs the selection `repeats` times in one interpreter (state left
behind shows on the second pass), and tests that touch randomness, the clock, threads or object identity
get `extra_repeats` more runs under a shaken schedule and heap.

Seeds derive from a plan seed that the lane draws afresh for every run (never the head commit: the diff
chooses that), so a diff cannot predict its replays; every pin is written to the ledger, so any replay
can be repeated exactly.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from enum import StrEnum

from lanegate.lanes.flake.budget import BatchPlan
from lanegate.lanes.flake.select import Selection, StrSet
from lanegate.lanes.flake.strhash import hash_secret, set_order


class Order(StrEnum):
    """The order a replay runs the selection in."""

    FORWARD = "forward"
    REVERSE = "reverse"
    SHUFFLED = "shuffled"


# POSIX TZ strings with a real offset change. A name the C library does not know with an angle-bracket
# form like `<X>-5` is silently UTC on some systems; three-letter names with an offset always work.
# UTC+14 and UTC-12 between them put the local date off the UTC date at every hour of the day, so a
# test that mixes local and UTC dates fails in one of them whenever it runs.
ZONES = ("UTC0", "LGE-14", "LGW+12", "LGN-5:30", "LGS+3:30", "LGF-9:45")
# Replay 1 runs the selection once: it measures what each test costs. A second pass there (state left
# behind by a later test, or by the test itself) cost a whole pass of every test and found nothing the
# reverse order of replay 2 (every pair both ways round) and the repeat batch that runs each test
# right after itself do not; the extra runs of risky tests are the batches' stress and repeat runs.
IN_PROCESS_REPEATS = 1
EXTRA_REPEATS = 0
# Where lanegate runs as root, this replay keeps root's file-permission override (as a root CI job
# has it) and the others do not: a test that expects `PermissionError` on a `chmod 000` file, or one
# that needs the override, meets both. Replay 2, whose host batches are the other CI hosts; never
# replay 1, which measures every test's cost.
PRIVILEGED_REPLAY = 2


@dataclass(frozen=True, slots=True)
class ReplayPin:
    """Everything one replay pins; all of it is recorded in the ledger."""

    replay: int
    hash_seed: int
    order: Order
    order_seed: int | None
    tz: str
    random_seed: int
    repeats: int
    extra_repeats: int
    # the replay keeps the file-permission override a root CI job has (`PRIVILEGED_REPLAY`)
    privileged: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    """The replays to run, which tests get extra in-process repeats, and the batches (planned from
    replay 1's durations, so empty until replay 1 has run)."""

    pins: tuple[ReplayPin, ...]
    extra_tests: tuple[str, ...]
    batches: tuple[BatchPlan, ...] = ()

    def with_batches(self, batches: tuple[BatchPlan, ...]) -> Plan:
        """The same plan with these batches."""
        return dataclasses.replace(self, batches=batches)

    def batches_of(self, replay: int) -> tuple[BatchPlan, ...]:
        """The batches replay `replay` runs."""
        return tuple(b for b in self.batches if b.replay == replay)

    def runs_of(self, node_id: str, pin: ReplayPin) -> int:
        """How many outcomes replay `pin` must report for a test."""
        extra = pin.extra_repeats if node_id.split("[", 1)[0] in self.extra_tests else 0
        return pin.repeats + extra


def _seed(plan_seed: str, replay: int, what: str) -> int:
    digest = hashlib.sha256(f"{plan_seed}:{replay}:{what}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def order_for(replay: int) -> Order:
    """Replay 1 runs in file order, replay 2 reversed, every later one shuffled."""
    if replay == 1:
        return Order.FORWARD
    if replay == 2:
        return Order.REVERSE
    return Order.SHUFFLED


HASH_CANDIDATES = 48
MAX_STR_SETS = 40


def choose_hash_seeds(plan_seed: str, count: int, str_sets: list[StrSet]) -> list[int]:
    """`count` distinct hash seeds. Without string sets: the first derived candidates. With them:
    greedily, the candidates that leave the fewest sets in one order across all replays (then the
    most distinct orders), so that a test depending on a set's order meets a different one."""
    candidates: list[int] = []
    k = 0
    while len(candidates) < max(count, HASH_CANDIDATES if str_sets else count):
        seed = _seed(plan_seed, k, "hash")
        if seed not in candidates:
            candidates.append(seed)
        k += 1
    if not str_sets:
        return candidates[:count]
    groups = str_sets[:MAX_STR_SETS]
    orders = {c: [set_order(g, hash_secret(c)) for g in groups] for c in candidates}
    chosen = [candidates[0]]

    def score(seeds: list[int]) -> tuple[int, int]:
        distinct = [len({orders[s][i] for s in seeds}) for i in range(len(groups))]
        return sum(1 for d in distinct if d > 1), sum(distinct)

    while len(chosen) < count:
        rest = [c for c in candidates if c not in chosen]
        chosen.append(max(rest, key=lambda c: score([*chosen, c])))
    return chosen


def make_plan(
    selection: Selection, min_replays: int, plan_seed: str, *, privilege: bool = False
) -> Plan:
    """At least `min_replays` (and never fewer than 3) replays that differ in every pin;
    `privilege`: replay `PRIVILEGED_REPLAY` keeps root's file-permission override."""
    count = max(3, min_replays)
    str_sets: list[StrSet] = []
    for test in selection.tests:
        str_sets.extend(g for g in test.str_sets if g not in str_sets)
    hash_seeds = choose_hash_seeds(plan_seed, count, str_sets)
    pins: list[ReplayPin] = []
    for replay in range(1, count + 1):
        hash_seed = hash_seeds[replay - 1]
        order = order_for(replay)
        pins.append(
            ReplayPin(
                replay=replay,
                hash_seed=hash_seed,
                order=order,
                order_seed=_seed(plan_seed, replay, "order") if order is Order.SHUFFLED else None,
                tz=ZONES[(replay - 1) % len(ZONES)],
                random_seed=_seed(plan_seed, replay, "random"),
                repeats=IN_PROCESS_REPEATS if replay == 1 else 1,
                extra_repeats=EXTRA_REPEATS if replay == 1 else 0,
                privileged=privilege and replay == PRIVILEGED_REPLAY,
            )
        )
    extra = tuple(sorted(t.node_id for t in selection.tests if t.risks))
    return Plan(pins=tuple(pins), extra_tests=extra)
