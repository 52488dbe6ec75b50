"""Detection power: how many executions of a test the flake ledger shows, per dimension, and the
smallest per-run failure probability those executions catch with 95% confidence.

A flake that fails a fraction `p` of its runs, independently, passes `n` runs with probability
`(1 - p) ** n`; the lane would have seen it with 95% confidence when that is at most 5%, so the
smallest such `p` is `1 - 0.05 ** (1 / n)` (3 runs: 63%; 30: 9.5%; 100: 3.0%; 300: 1.0%). Computed from
the recorded runs, never taken from the ledger's own claim, so the lane and the scorer always agree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from lanegate.lanes.flake.dimensions import WIDE_ZONES
from lanegate.ledgers.models import (
    DetectionPower,
    Dimension,
    FlakeLedger,
    FlakeTest,
    Outcome,
    RunBatch,
)

CONFIDENCE = 0.95
_REPORTED = (Outcome.PASSED, Outcome.FAILED, Outcome.SKIPPED)


def min_detectable_rate(executions: int, confidence: float = CONFIDENCE) -> float:
    """The smallest per-run failure probability `executions` independent runs catch at `confidence`."""
    if executions <= 0:
        return 1.0
    return 1.0 - float((1.0 - confidence) ** (1.0 / executions))


def batch_kinds(batch: RunBatch) -> set[Outcome]:
    """The outcomes a batch's runs reported."""
    counts = (
        (Outcome.PASSED, batch.passed),
        (Outcome.FAILED, batch.failed),
        (Outcome.ERROR, batch.error),
        (Outcome.SKIPPED, batch.skipped),
        (Outcome.MISSING, batch.missing),
    )
    return {k for k, v in counts if v}


def judged_kinds(batch: RunBatch, base: set[Outcome]) -> set[Outcome]:
    """What a batch's runs say about the test, next to its base runs' outcomes `base`. A hash-seed
    batch runs in fresh interpreters, which cannot rebuild what a conftest or an earlier test set
    up: when all its runs went one stable way and no base run went that way, they say nothing
    (empty); when they disagree among themselves, or agree with a base run, they count."""
    kinds = batch_kinds(batch)
    if (
        batch.dimension is Dimension.HASH_SEED
        and len(kinds) == 1
        and kinds <= set(_REPORTED)
        and not kinds & base
    ):
        return set()
    return kinds


def clean_kinds(test: FlakeTest) -> set[Outcome]:
    """What a test's own evidence says: its base runs and every batch that began before another
    test's failed run left its process changed (`after_failure_of` unset)."""
    base = {r.outcome for r in test.replays}
    return base | {
        k for b in test.batches if b.after_failure_of is None for k in judged_kinds(b, base)
    }


def culprits(tests: Iterable[FlakeTest]) -> frozenset[str]:
    """Node ids whose own evidence flags them: outcomes that disagree, an outcome other than a
    pass, a fail or a skip, or a failure in every run. Each fails the gate by itself; a later test
    whose batch failed after one of them left its process changed is judged without those
    failures. A process's first polluter has no polluter before it, so its own failure is clean
    evidence and it is always here."""
    out = set()
    for test in tests:
        kinds = clean_kinds(test)
        if len(kinds) > 1 or not kinds <= set(_REPORTED) or kinds == {Outcome.FAILED}:
            out.add(test.node_id)
    return frozenset(out)


def judged(test: FlakeTest, flagged: frozenset[str]) -> FlakeTest:
    """The test as the lane and the scorer judge it: a batch that began after a `flagged` test
    failed in its process counts its passes, skips, errors and missing runs, not its failures
    (they are the flagged test's aftermath: a thread it left running, an environment variable it
    left set). The ledger keeps every count as it was reported."""
    if not any(b.failed and b.after_failure_of in flagged for b in test.batches):
        return test
    return dataclasses.replace(
        test,
        batches=tuple(
            dataclasses.replace(b, failed=0, first_failed_run=None)
            if b.failed and b.after_failure_of in flagged
            else b
            for b in test.batches
        ),
    )


def aftermath(tests: Iterable[FlakeTest], flagged: frozenset[str]) -> dict[str, str]:
    """Flagged node id -> one note naming the runs of later tests whose failures `judged` sets
    aside as its aftermath, for the messages that name the flagged test."""
    after: dict[str, list[str]] = {}
    for test in tests:
        for b in test.batches:
            if b.failed and b.after_failure_of is not None and b.after_failure_of in flagged:
                after.setdefault(b.after_failure_of, []).append(
                    f"{test.node_id} r{b.replay}.{b.dimension} failed x{b.failed}"
                )
    return {
        node_id: "; after it failed, in the same process: "
        + ", ".join(notes)
        + " (counted against it, not them)"
        for node_id, notes in after.items()
    }


def power_of(test: FlakeTest) -> DetectionPower:
    """The detection power of one test from its recorded runs (a zone batch's run `i` ran under
    `WIDE_ZONES[i]`)."""
    base = [r for r in test.replays if r.outcome in _REPORTED]
    base_kinds = {r.outcome for r in test.replays}
    batch_runs = dict.fromkeys(Dimension, 0)
    for batch in test.batches:
        if judged_kinds(batch, base_kinds):  # a fresh interpreter that could not run it: none
            batch_runs[batch.dimension] += batch.passed + batch.failed + batch.skipped
    zones = {r.tz for r in base}
    zone_runs = batch_runs[Dimension.ZONE]
    if zone_runs:
        zones |= set(WIDE_ZONES[: min(zone_runs, len(WIDE_ZONES))])
    executions = len(base) + sum(batch_runs.values())
    return DetectionPower(
        executions=executions,
        order=len({(r.order, r.order_seed) for r in base}),
        hash_seed=len({r.hash_seed for r in base}) + batch_runs[Dimension.HASH_SEED],
        zone=len(zones),
        clock=batch_runs[Dimension.CLOCK],
        repeat=sum(1 for r in base if r.repeat > 0) + batch_runs[Dimension.REPEAT],
        stress=batch_runs[Dimension.STRESS],
        isolation=batch_runs[Dimension.ISOLATION],
        cwd=batch_runs[Dimension.CWD],
        terminal=batch_runs[Dimension.TERMINAL],
        cpus=batch_runs[Dimension.CPUS],
        dst=batch_runs[Dimension.DST],
        calendar=batch_runs[Dimension.CALENDAR],
        shared_host=batch_runs[Dimension.SHARED_HOST],
        env=batch_runs[Dimension.ENV],
        deschedule=batch_runs[Dimension.DESCHEDULE],
        listing=batch_runs[Dimension.LISTING],
        min_detectable_rate=min_detectable_rate(executions),
    )


def ledger_power(ledger: FlakeLedger) -> dict[str, DetectionPower]:
    """Node id -> detection power of every test of the ledger, as judged (`judged`)."""
    flagged = culprits(ledger.tests)
    return {t.node_id: power_of(judged(t, flagged)) for t in ledger.tests}
