"""Detection power: how many executions of a test the flake ledger shows, per dimension, and the
smallest per-run failure probability those executions catch with 95% confidence.

A flake that fails a fraction `p` of its runs, independently, passes `n` runs with probability
`(1 - p) ** n`; the lane would have seen it with 95% confidence when that is at most 5%, so the
smallest such `p` is `1 - 0.05 ** (1 / n)` (3 runs: 63%; 30: 9.5%; 100: 3.0%; 300: 1.0%). Computed from
the recorded runs, never taken from the ledger's own claim, so the lane and the scorer always agree.
"""

from __future__ import annotations

from lanegate.lanes.flake.dimensions import WIDE_ZONES
from lanegate.ledgers.models import DetectionPower, Dimension, FlakeLedger, FlakeTest, Outcome

CONFIDENCE = 0.95
_REPORTED = (Outcome.PASSED, Outcome.FAILED, Outcome.SKIPPED)


def min_detectable_rate(executions: int, confidence: float = CONFIDENCE) -> float:
    """The smallest per-run failure probability `executions` independent runs catch at `confidence`."""
    if executions <= 0:
        return 1.0
    return 1.0 - float((1.0 - confidence) ** (1.0 / executions))


def power_of(test: FlakeTest) -> DetectionPower:
    """The detection power of one test from its recorded runs (a zone batch's run `i` ran under
    `WIDE_ZONES[i]`)."""
    base = [r for r in test.replays if r.outcome in _REPORTED]
    batch_runs = dict.fromkeys(Dimension, 0)
    for batch in test.batches:
        batch_runs[batch.dimension] += batch.passed + batch.failed + batch.skipped
    zones = {r.tz for r in base}
    zone_runs = batch_runs[Dimension.ZONE]
    if zone_runs:
        zones |= set(WIDE_ZONES[: min(zone_runs, len(WIDE_ZONES))])
    executions = len(base) + sum(batch_runs.values())
    return DetectionPower(
        executions=executions,
        order=len({(r.order, r.order_seed) for r in base}),
        hash_seed=len({r.hash_seed for r in base}),
        zone=len(zones),
        clock=batch_runs[Dimension.CLOCK],
        repeat=sum(1 for r in base if r.repeat > 0) + batch_runs[Dimension.REPEAT],
        stress=batch_runs[Dimension.STRESS],
        isolation=batch_runs[Dimension.ISOLATION],
        min_detectable_rate=min_detectable_rate(executions),
    )


def ledger_power(ledger: FlakeLedger) -> dict[str, DetectionPower]:
    """Node id -> detection power, for every test of the ledger."""
    return {t.node_id: power_of(t) for t in ledger.tests}
