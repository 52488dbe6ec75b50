"""The repetition budget: from each test's measured duration to in-process batch runs per dimension.

Interpreter start is most of a replay's cost, and a fast test costs microseconds a run once its
process is up, so the lane spends a CPU budget (`flake.repeat_budget_seconds`) on repetitions inside
the replays it runs anyway. Each test's cost per run comes from replay 1 (its call alone when it has
no fixtures, since its batch runs then loop over the call; its whole setup/call/teardown otherwise).
The budget is shared by water-filling: every test gets the same share of seconds, a test that needs
less than its share (a fast one, capped at `MAX_RUNS`) leaves the rest to the slower ones, and no
test gets fewer than `MIN_RUNS` (one run of each batch dimension) whatever it costs: those are not
paid from the budget, so a slow test cannot starve the fast ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lanegate.lanes.flake.dimensions import WIDE_ZONES, Dimension

MIN_RUNS = 3
MAX_RUNS = 400
# Per-run overhead beyond the measured time (measured on the corpora): the fast loop's seeding and
# heap shift, or pytest's item protocol (fixtures, hooks, reporting) for a test with fixtures.
FAST_OVERHEAD = 80e-6
PROTOCOL_OVERHEAD = 2.5e-3
# Stress runs cost wall time (each waits out a GIL stall of 5-30 ms) and a thread: tests whose AST
# shows threads or the clock (sleeps, timeouts, TTLs) get up to STRESS_RISKY of them, others none.
STRESS_RISKY = 24
STRESS_PLAIN = 0
STRESS_RISKS = frozenset({"threads", "clock"})
# Which replay runs which batch (replay 1 measures; 2 and 3 differ in order, hash seed and zone).
REPEAT_REPLAYS = (2, 3)
ZONE_REPLAY = 2
STRESS_REPLAY = 3
ISOLATION_REPLAY = 3
# Clock runs: tests whose AST shows the clock, up to CLOCK_RUNS of them (every hour shift within 23).
CLOCK_REPLAY = 3
CLOCK_RUNS = 31


@dataclass(frozen=True, slots=True)
class RunCost:
    """What replay 1 measured of one test (a parametrized item is a test of its own)."""

    node_id: str
    seconds: float
    fast: bool
    risks: frozenset[str] = frozenset()
    touched: bool = True  # new or changed by the diff: it also runs once alone (isolation)

    @property
    def per_run(self) -> float:
        """Seconds one batch run of this test is expected to cost."""
        return max(0.0, self.seconds) + (FAST_OVERHEAD if self.fast else PROTOCOL_OVERHEAD)


@dataclass(frozen=True, slots=True)
class BatchPlan:
    """Runs of one test in one dimension, in one replay."""

    replay: int
    node_id: str
    dimension: Dimension
    runs: int


def _runs(costs: Sequence[RunCost], share: float) -> list[int]:
    return [max(MIN_RUNS, min(MAX_RUNS, int(share / c.per_run))) for c in costs]


def spent(costs: Sequence[RunCost], runs: Sequence[int]) -> float:
    """Seconds the runs beyond each test's `MIN_RUNS` are expected to cost (what the budget pays)."""
    return sum((r - MIN_RUNS) * c.per_run for c, r in zip(costs, runs, strict=True))


def total_runs(costs: Sequence[RunCost], budget_seconds: float) -> list[int]:
    """Each test's batch runs under the budget (water-filling on a common share of seconds)."""
    if not costs:
        return []
    low, high = 0.0, max(c.per_run for c in costs) * MAX_RUNS
    for _ in range(60):
        mid = (low + high) / 2
        if spent(costs, _runs(costs, mid)) <= budget_seconds:
            low = mid
        else:
            high = mid
    return _runs(costs, low)


def _split(cost: RunCost, runs: int) -> list[tuple[int, Dimension, int]]:
    stress_cap = STRESS_RISKY if cost.risks & STRESS_RISKS else STRESS_PLAIN
    stress = min(stress_cap, max(1, runs // 4))
    zone = max(1, min(len(WIDE_ZONES), runs // 5))
    clock = max(1, min(CLOCK_RUNS, runs // 4)) if "clock" in cost.risks else 0
    repeat = max(1, runs - stress - zone - clock)
    first = (repeat + 1) // 2
    out = [
        (REPEAT_REPLAYS[0], Dimension.REPEAT, first),
        (REPEAT_REPLAYS[1], Dimension.REPEAT, repeat - first),
        (ZONE_REPLAY, Dimension.ZONE, zone),
        (STRESS_REPLAY, Dimension.STRESS, stress),
    ]
    out.append((CLOCK_REPLAY, Dimension.CLOCK, clock))
    if cost.touched:
        out.append((ISOLATION_REPLAY, Dimension.ISOLATION, 1))
    return [entry for entry in out if entry[2] > 0]


def plan_batches(costs: Sequence[RunCost], budget_seconds: float) -> tuple[BatchPlan, ...]:
    """The batch runs of every measured test, split over the dimensions and replays 2 and 3."""
    plans: list[BatchPlan] = []
    for cost, runs in zip(costs, total_runs(costs, budget_seconds), strict=True):
        for replay, dimension, count in _split(cost, runs):
            plans.append(BatchPlan(replay, cost.node_id, dimension, count))
    return tuple(plans)
