"""The repetition budget: from each test's measured cost to in-process batch runs per dimension.

Interpreter start is most of a replay's cost, and a fast test costs microseconds a run once its
process is up, so the lane spends a CPU budget (`flake.repeat_budget_seconds`) on repetitions inside
the replays it runs anyway. Each test's cost per run comes from replay 1 (its call alone when it has
no fixtures, since its batch runs then loop over the call; its whole setup/call/teardown otherwise):
its CPU seconds, plus a tenth of the time it spent waiting (a sleeping test costs the machine little
CPU, but its replays must still end within the wall clock, which `WALL_CAP_SECONDS` bounds too).
The budget is shared by water-filling: every test gets the same share, a test that needs less than
its share (a fast one, capped at `MAX_RUNS`) leaves the rest to the slower ones, and no test gets
fewer than its floor, whatever it costs: `MIN_RUNS` (one run right after itself in a process, in
each of the two repeat replays: a self-polluter fails both, and the scorer calls it a state leak,
not a flake, only on two replays' failing repeat runs), raised so that its base runs and batch runs together reach the executions
the scorer's `flake.detect_rate` asks for (`with_floors`), and for a test that reads the clock one
clock run more. The floor is not paid from the budget, so a slow test cannot starve the fast ones.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from lanegate.lanes.flake.dimensions import (
    CALENDAR_POSITIONS,
    CLOCK_STEPS,
    CPU_COUNTS,
    DST_CHANGES,
    ENV_SETS,
    HOST_RISKS,
    ISOLATION_YIELD_EVERY,
    LISTING_ORDERS,
    TERMINAL_SIZES,
    WIDE_ZONES,
    YIELD_EVERY,
    Dimension,
)

MIN_RUNS = 2  # one repeat run in each of REPEAT_REPLAYS
# A test whose AST shows a cause of flakiness gets this many shares of the budget to a plain one's 1.
RISKY_WEIGHT = 4.0
MAX_RUNS = 400
# Per-run overhead beyond the measured time (measured on the corpora): the fast loop's seeding and
# heap shift, or pytest's item protocol (fixtures, hooks, reporting) for a test with fixtures.
FAST_OVERHEAD = 80e-6
PROTOCOL_OVERHEAD = 2.5e-3
# A second spent waiting (sleeping, blocked on a lock) is charged this much of a CPU second.
WAIT_SHARE = 0.1
# All batch runs of one lane run together may wait at most this long (wall seconds, beyond MIN_RUNS).
WALL_CAP_SECONDS = 40.0
# Stress runs cost wall time (each waits out a GIL stall of 5-30 ms) and a thread: tests whose AST
# shows the clock (sleeps, timeouts, TTLs) get up to STRESS_RISKY of them (a quarter of their runs),
# tests that start threads up to STRESS_THREADS (half), others none.
STRESS_RISKY = 24
# Tests that start threads get half their runs under stress, up to STRESS_THREADS.
STRESS_THREADS = 64
STRESS_PLAIN = 0
# A deadline the test sets itself (`subprocess.run(..., timeout=0.12)`) is its own dependence on
# the machine's speed: it gets the stress and deschedule runs a test reading the clock gets.
STRESS_RISKS = frozenset({"threads", "clock", "deadline"})
# However small its budget, a test that starts threads gets this many stress runs, unpaid like the
# floor: every yield rate of the preempting runs once (`stress.Preemption`), and as many stalling
# runs (`stress_floors`). A budget cut otherwise takes a slow thread test's stress runs first (at
# budget 0.25, a 3 ms race got 5-7, all of them passing while a sibling replay held the other CPU).
# Fewer when they would cost one test more than DESCHEDULE_COST CPU seconds or STRESS_FLOOR_WALL
# wall seconds, and all tests' together at most STRESS_FLOORS_WALL (a stall run takes longer).
STRESS_FLOOR = 2 * len(YIELD_EVERY)
STRESS_FLOOR_WALL = 3.0
STRESS_FLOORS_WALL = 20.0
# Deschedule runs (`lanes/flake/deschedule.py`), unpaid, for the same tests: each stops the process
# once for 100-300 ms (wall time, no CPU); a test gets DESCHEDULE_RUNS of them, fewer (at least one)
# when its own runs would cost more than DESCHEDULE_COST of the budget's CPU seconds in all.
DESCHEDULE_RUNS = 4
DESCHEDULE_COST = 0.5
DESCHEDULE_REPLAY = 3
# Which replay runs which batch (replay 1 measures; 2 and 3 differ in order, hash seed and zone).
REPEAT_REPLAYS = (2, 3)
ZONE_REPLAY = 2
STRESS_REPLAY = 3
ISOLATION_REPLAY = 3
# Isolation runs of a test that starts threads: alone, alone under stalls, then alone preempted at
# each `ISOLATION_YIELD_EVERY` rate (`dimensions.run_pins`); unpaid, fewer when they would cost
# more than DESCHEDULE_COST CPU seconds or STRESS_FLOOR_WALL wall seconds.
ISOLATION_THREAD_RUNS = 2 + len(ISOLATION_YIELD_EVERY)
# Clock runs: tests whose AST shows the clock, up to CLOCK_RUNS of them (every date 32 days ahead).
CLOCK_REPLAY = 3
CLOCK_RUNS = CLOCK_STEPS
# However small its budget (a loaded machine measures every test slower), a test that reads the clock
# gets this many clock runs, unpaid like the floor: the first six steps (15, 31, 12, 28, 10 and 25
# days ahead) land, from any start date, on a day from the 22nd of a month on (the 19th in February),
# so a test that fails only on a later day of the month is exposed on every run, not on some.
CLOCK_FLOOR = 6
# Hash-seed runs (`lanes/flake/fresh.py`): each is one fresh interpreter per run index that calls
# every test a fresh interpreter can call (`fresh`), whose AST (or that of a repository module it
# imports a name from) builds sets or hashes (`select.shows_hashing`) and whose call costs at most
# FRESH_MAX_SECONDS, so its start (~15 ms plus the imports) is shared by all of them. A flake failing under a tenth of
# the hash seeds shows within FRESH_RUNS + 3 seeds with 84% probability (a quarter of them: 99.5%).
HASH_REPLAY = 3
FRESH_RUNS = 16
# A test module that imports pytest makes every child pay pytest's import (~0.3 s, what most of a
# replay process costs): such tests get this many hash-seed runs.
FRESH_RUNS_HEAVY = 2
FRESH_MAX_SECONDS = 0.02
# Host runs (`lanes/flake/host.py`), unpaid like the floor, for tests whose AST shows the host
# condition (`select.HOST_RISK_NAMES`): an empty working directory once (every relative path then
# misses), the narrow and the wide terminal, one CPU and four, a CI runner's environment variables
# and a colour terminal's, directory listings reversed and shuffled. Each condition but the shuffle
# is deterministic, so a run per value shows what it does.
HOST_REPLAY = 2
HOST_RUNS = {
    Dimension.CWD: 1,
    Dimension.TERMINAL: len(TERMINAL_SIZES),
    Dimension.CPUS: len(CPU_COUNTS),
    Dimension.ENV: len(ENV_SETS),
    Dimension.LISTING: len(LISTING_ORDERS),
}
# DST runs (`dimensions.DST_CHANGES`), unpaid, for tests whose AST shows the clock: the US
# spring-forward day and the EU fall-back day, each deterministic.
DST_RUNS = len(DST_CHANGES)
# A test that reads the clock meets every calendar position once, unpaid like its DST runs.
CALENDAR_RUNS = len(CALENDAR_POSITIONS)
# A test the diff touched that uses a path, a temporary file, a socket or the environment runs in
# three pairs of copies started together (two pytest-xdist workers on one runner), unpaid.
SHARED_REPLAY = 3
SHARED_RUNS = 6
SHARED_RISKS = frozenset({"resource", "cwd"})


@dataclass(frozen=True, slots=True)
class RunCost:
    """What replay 1 measured of one test (a parametrized item is a test of its own): wall seconds
    and, when the plugin measured them, CPU seconds."""

    node_id: str
    seconds: float
    fast: bool
    risks: frozenset[str] = frozenset()
    touched: bool = True  # new or changed by the diff: it also runs once alone (isolation)
    cpu: float | None = None
    floor: int = MIN_RUNS  # batch runs it gets whatever the budget (`with_floors`)
    fresh: str = ""  # a fresh interpreter can call it: `light`, or `heavy` (it imports pytest)

    @property
    def wall(self) -> float:
        """Wall seconds one batch run of this test is expected to take."""
        return max(0.0, self.seconds) + (FAST_OVERHEAD if self.fast else PROTOCOL_OVERHEAD)

    @property
    def per_run(self) -> float:
        """What one batch run of this test is expected to cost the budget: its CPU seconds and a
        `WAIT_SHARE` of the rest of its wall time (all of its wall time when no CPU was measured)."""
        seconds = max(0.0, self.seconds)
        if self.cpu is None:
            charged = seconds
        else:
            cpu = min(max(0.0, self.cpu), seconds) if seconds > 0 else max(0.0, self.cpu)
            charged = cpu + WAIT_SHARE * max(0.0, seconds - cpu)
        return charged + (FAST_OVERHEAD if self.fast else PROTOCOL_OVERHEAD)


@dataclass(frozen=True, slots=True)
class BatchPlan:
    """Runs of one test in one dimension, in one replay."""

    replay: int
    node_id: str
    dimension: Dimension
    runs: int


def minimum(cost: RunCost) -> int:
    """The batch runs a test gets whatever the budget."""
    return max(0, cost.floor)


def executions_for(detect_rate: float, confidence: float = 0.95) -> int:
    """The fewest independent runs that catch, with `confidence`, a flake failing `detect_rate` of
    its runs (the scorer's `flake-low-power` rule, inverted)."""
    if detect_rate >= 1.0:
        return 1
    if detect_rate <= 0.0:
        return MAX_RUNS
    return max(1, math.ceil(math.log(1.0 - confidence) / math.log(1.0 - detect_rate) - 1e-9))


def with_floors(costs: Sequence[RunCost], replays: int, detect_rate: float) -> list[RunCost]:
    """The costs with each test's floor: at least `MIN_RUNS`, and enough batch runs that its
    `replays` base runs, its isolation run (a test the diff touched) and its batch runs reach the
    executions `detect_rate` asks for (capped at `MAX_RUNS`)."""
    need = executions_for(detect_rate)
    floors = [min(MAX_RUNS, max(MIN_RUNS, need - replays - (1 if c.touched else 0))) for c in costs]
    # floors beyond MIN_RUNS wait at most WALL_CAP_SECONDS in all (then the scorer says so)
    extra = sum((f - MIN_RUNS) * c.wall for c, f in zip(costs, floors, strict=True))
    if extra > WALL_CAP_SECONDS:
        scale = WALL_CAP_SECONDS / extra
        floors = [MIN_RUNS + int((f - MIN_RUNS) * scale) for f in floors]
    return [dataclasses.replace(c, floor=f) for c, f in zip(costs, floors, strict=True)]


def weight(cost: RunCost) -> float:
    """How many shares of the budget a test gets: `RISKY_WEIGHT` when its AST shows a cause of
    flakiness (randomness, the clock, threads, object identity, shared resources), else 1."""
    return RISKY_WEIGHT if cost.risks - {"hashing", *HOST_RISKS} else 1.0  # host: runs, no share


def _runs(costs: Sequence[RunCost], share: float) -> list[int]:
    return [max(minimum(c), min(MAX_RUNS, int(share * weight(c) / c.per_run))) for c in costs]


def spent(costs: Sequence[RunCost], runs: Sequence[int]) -> float:
    """What the runs beyond each test's `minimum` are expected to cost (what the budget pays)."""
    return sum((r - minimum(c)) * c.per_run for c, r in zip(costs, runs, strict=True))


def waited(costs: Sequence[RunCost], runs: Sequence[int]) -> float:
    """Wall seconds the runs beyond each test's `minimum` are expected to take."""
    return sum((r - minimum(c)) * c.wall for c, r in zip(costs, runs, strict=True))


def total_runs(
    costs: Sequence[RunCost], budget_seconds: float, wall_cap: float = WALL_CAP_SECONDS
) -> list[int]:
    """Each test's batch runs under the budget and the wall cap (water-filling on a common share)."""
    if not costs:
        return []
    low, high = 0.0, max(c.per_run for c in costs) * MAX_RUNS
    for _ in range(60):
        mid = (low + high) / 2
        runs = _runs(costs, mid)
        if spent(costs, runs) <= budget_seconds and waited(costs, runs) <= wall_cap:
            low = mid
        else:
            high = mid
    return _runs(costs, low)


def _unpaid(cost: RunCost, wanted: int) -> int:
    """Up to `wanted` unpaid runs of a test: as many as cost at most DESCHEDULE_COST CPU seconds
    and STRESS_FLOOR_WALL wall seconds."""
    return min(
        wanted,
        int(DESCHEDULE_COST / max(cost.per_run, 1e-9)),
        int(STRESS_FLOOR_WALL / max(cost.wall, 1e-9)),
    )


def stress_floors(costs: Sequence[RunCost]) -> list[int]:
    """The unpaid stress runs of each test (`STRESS_FLOOR` for a test that starts threads, within
    its cost and wall bounds; the tests' together within `STRESS_FLOORS_WALL`)."""
    floors = [_unpaid(c, STRESS_FLOOR) if "threads" in c.risks else 0 for c in costs]
    total = sum(f * c.wall for c, f in zip(costs, floors, strict=True))
    if total > STRESS_FLOORS_WALL:
        scale = STRESS_FLOORS_WALL / total
        floors = [int(f * scale) for f in floors]
    return floors


def _split(cost: RunCost, runs: int, stress_floor: int = 0) -> list[tuple[int, Dimension, int]]:
    """A test's runs over the dimensions: its isolation runs (a test the diff touched; more for a
    test that starts threads, `ISOLATION_THREAD_RUNS`, unpaid), its
    hash-seed runs (a cheap test a fresh interpreter can call; not paid from `runs`, see
    FRESH_RUNS), its host runs (`HOST_RUNS`), DST and calendar runs (`DST_RUNS`, `CALENDAR_RUNS`, unpaid too); the first two repeat it right
    after itself, once in each repeat replay (replays 2 and 3); the rest go to zones (a fifth), stress (a quarter, risky tests; half
    for tests that start threads, and at least `stress_floor`, unpaid), the clock (a quarter,
    tests that read it) and more repeats, as far as they reach."""
    out: list[tuple[int, Dimension, int]] = []
    if cost.touched:
        alone = max(1, _unpaid(cost, ISOLATION_THREAD_RUNS)) if "threads" in cost.risks else 1
        out.append((ISOLATION_REPLAY, Dimension.ISOLATION, alone))
    fresh_runs = {"light": FRESH_RUNS, "heavy": FRESH_RUNS_HEAVY}.get(cost.fresh, 0)
    cheap = cost.per_run - FAST_OVERHEAD <= FRESH_MAX_SECONDS
    if fresh_runs and cheap and "hashing" in cost.risks:
        out.append((HASH_REPLAY, Dimension.HASH_SEED, fresh_runs))
    for dimension, host_runs in HOST_RUNS.items():
        if str(dimension) in cost.risks:
            out.append((HOST_REPLAY, dimension, host_runs))
    if cost.touched and cost.risks & SHARED_RISKS:
        out.append((SHARED_REPLAY, Dimension.SHARED_HOST, SHARED_RUNS))
    if "clock" in cost.risks:
        out.append((CLOCK_REPLAY, Dimension.DST, DST_RUNS))
        out.append((CLOCK_REPLAY, Dimension.CALENDAR, CALENDAR_RUNS))
    if cost.risks & STRESS_RISKS:
        affordable = int(DESCHEDULE_COST / max(cost.per_run, 1e-9))
        out.append(
            (DESCHEDULE_REPLAY, Dimension.DESCHEDULE, max(1, min(DESCHEDULE_RUNS, affordable)))
        )
    if runs <= 0:
        return out
    stress_cap = STRESS_RISKY if cost.risks & STRESS_RISKS else STRESS_PLAIN
    # the first run of each repeat replay (`MIN_RUNS`) is a repeat, before any other dimension
    floor = min(runs, len(REPEAT_REPLAYS))
    rest = runs - floor
    stress = min(stress_cap, (runs + 3) // 4, rest)
    if "threads" in cost.risks:
        stress = min(STRESS_THREADS, (runs + 1) // 2, rest)
    rest -= stress
    stress = max(stress, stress_floor)  # the floor's runs beyond the budget's are unpaid
    clock = 0
    if "clock" in cost.risks:
        # at least CLOCK_FLOOR, unpaid like the floor: clock run 0 moves the date past two weeks
        # ahead, the next five reach the later days of a month
        clock = max(CLOCK_FLOOR, min(CLOCK_RUNS, (runs + 3) // 4, rest))
        rest = max(0, rest - clock)
    zone = min(len(WIDE_ZONES), runs // 5, rest)
    repeat = floor + rest - zone
    first = (repeat + 1) // 2
    out[:0] = [
        (REPEAT_REPLAYS[0], Dimension.REPEAT, first),
        (REPEAT_REPLAYS[1], Dimension.REPEAT, repeat - first),
        (ZONE_REPLAY, Dimension.ZONE, zone),
        (STRESS_REPLAY, Dimension.STRESS, stress),
        (CLOCK_REPLAY, Dimension.CLOCK, clock),
    ]
    return [entry for entry in out if entry[2] > 0]


def plan_batches(costs: Sequence[RunCost], budget_seconds: float) -> tuple[BatchPlan, ...]:
    """The batch runs of every measured test, split over the dimensions and replays 2 and 3."""
    plans: list[BatchPlan] = []
    runs_and_floors = zip(total_runs(costs, budget_seconds), stress_floors(costs), strict=True)
    for cost, (runs, stress_floor) in zip(costs, runs_and_floors, strict=True):
        for replay, dimension, count in _split(cost, runs, stress_floor):
            plans.append(BatchPlan(replay, cost.node_id, dimension, count))
    return tuple(plans)
