"""The scorer: evidence -> reasons -> ScoreReport. Pure: no I/O and no clock (`now` is an input)."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable
from datetime import datetime
from typing import assert_never

from lanegate.authorship import Authorship
from lanegate.errors import UsageError
from lanegate.ledgers.models import (
    SCHEMA_VERSION,
    AuthorKind,
    FixtureLedger,
    FlakeLedger,
    LaneSummary,
    LedgerDigest,
    MutantStatus,
    PropertyLedger,
    ReportReason,
    ScoreReport,
)
from lanegate.model import Lane, Location, Reason, Severity, Verdict
from lanegate.policy import Policy
from lanegate.scoring.evidence import (
    LEDGER_FILES,
    LEDGER_LANES,
    AnyLedger,
    Hit,
    LoadedLedger,
    LoadedLint,
    RuleContext,
    ScoreInputs,
    SlotEvidence,
    lane_of,
)
from lanegate.scoring.flake_power import ledger_power
from lanegate.scoring.table import Row, Scope, rows

_MAX_TEXT = 4096
_REPORT_LANES = (Lane.PROPERTY, Lane.FIXTURE, Lane.FLAKE, Lane.LINT, Lane.GATE)


def _reason(row: Row, lane: Lane, hit: Hit, default_path: str | None, severity: Severity) -> Reason:
    location = hit.location
    if location is None and default_path is not None:
        location = Location(default_path)
    elif (
        location is not None
        and default_path is not None
        and lane in LEDGER_FILES
        and location.path == LEDGER_FILES[lane]
    ):
        # predicates name the ledger by its file name; the report names the file actually read
        location = dataclasses.replace(location, path=default_path)
    return Reason(
        lane=row.lane or lane,
        rule_id=row.rule_id,
        message=hit.message,
        severity=severity,
        location=location,
        fix=row.fix,
    )


def _apply(
    row: Row, lane: Lane, evidence: object, ctx: RuleContext, path: str | None, human: bool
) -> list[Reason]:
    """The row's reasons in the column the run is scored by (`human`: Lane A)."""
    severity = row.severity_in(row.column(human))
    if severity is None:
        return []
    return [_reason(row, lane, hit, path, severity) for hit in row.check_for(human)(evidence, ctx)]


def _human(ctx: RuleContext, ledger: AnyLedger | None = None) -> bool:
    """Lane A applies to a diff a human owns; to a ledger's rows only when that ledger was written
    for a human diff too (a ledger evaluated as agent keeps Lane B's reading)."""
    if ctx.authorship is not AuthorKind.HUMAN:
        return False
    return getattr(ledger, "authorship", AuthorKind.HUMAN) is AuthorKind.HUMAN


def _ledger_scope(ledger: AnyLedger) -> Scope:
    lane = lane_of(ledger)
    if lane is Lane.PROPERTY:
        return Scope.PROPERTY
    if lane is Lane.FIXTURE:
        return Scope.FIXTURE
    if lane is Lane.FLAKE:
        return Scope.FLAKE
    raise AssertionError(lane)  # lane_of only returns the three ledger lanes


def _slot_reasons(lane: Lane, evidence: SlotEvidence, ctx: RuleContext) -> list[Reason]:
    path = evidence.slot.path
    out: list[Reason] = []
    for row in rows(Scope.SLOT):
        out.extend(_apply(row, lane, evidence, ctx, path, _human(ctx)))
    if isinstance(evidence.slot, LoadedLedger):
        ledger = evidence.slot.value
        for row in rows(_ledger_scope(ledger)):
            out.extend(_apply(row, lane, ledger, ctx, path, _human(ctx, ledger)))
    return out


def _check_now(now: datetime) -> None:
    if now.tzinfo is None or now.utcoffset() is None:
        raise UsageError("the scorer's `now` must carry a time zone")


def lane_reasons(
    ledger: AnyLedger,
    *,
    policy: Policy,
    now: datetime,
    authorship: AuthorKind | Authorship,
    pr_body: str | None = None,
    run_attempt: int | None = None,
    expect_jobs: bool = False,
    allow_rerun: bool = False,
    path: str | None = None,
) -> list[Reason]:
    """Every reason the scorer would give about this one ledger (its lane's rows and provenance).

    A lane CLI passes when no reason has severity ERROR. Run-wide rows (lint, diff, cross-ledger
    consistency) need the whole run and are left to `score`. `authorship` may be the decision
    (`Authorship`) or its kind.
    """
    _check_now(now)
    lane = lane_of(ledger)
    kind = authorship.kind if isinstance(authorship, Authorship) else authorship
    ctx = RuleContext(
        policy=policy,
        now=now,
        authorship=kind,
        pr_body=pr_body,
        run_attempt=run_attempt,
        expect_jobs=expect_jobs,
        allow_rerun=allow_rerun,
    )
    slot = LoadedLedger(ledger, "", path or LEDGER_FILES[lane])
    return _slot_reasons(lane, SlotEvidence(lane, slot), ctx)


def evaluate(inputs: ScoreInputs) -> list[Reason]:
    """Every reason of the run, in table order per lane: slot and ledger rows, then run rows."""
    _check_now(inputs.now)
    ctx = inputs.context()
    out: list[Reason] = []
    for lane in LEDGER_LANES:
        out.extend(_slot_reasons(lane, SlotEvidence(lane, inputs.slot(lane)), ctx))
    for row in rows(Scope.RUN):
        out.extend(_apply(row, row.lane or Lane.GATE, inputs, ctx, None, _human(ctx)))
    return out


def _clip(text: str, limit: int = _MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _report_reason(reason: Reason) -> ReportReason:
    loc = reason.location
    line = loc.line if loc is not None and loc.line is not None and loc.line >= 1 else None
    return ReportReason(
        lane=reason.lane.value,
        rule_id=_clip(reason.rule_id, 100),
        severity=reason.severity.value,
        message=_clip(reason.message),
        path=_clip(loc.path) if loc is not None else None,
        line=line,
        fix=_clip(reason.fix),
    )


def _bounded(value: int) -> int:
    return max(0, min(value, 2**63 - 1))


def _counts(lane: Lane, inputs: ScoreInputs) -> dict[str, int]:
    if lane is Lane.PROPERTY or lane is Lane.FIXTURE or lane is Lane.FLAKE:
        slot = inputs.slot(lane)
        if not isinstance(slot, LoadedLedger):
            return {}
        return _ledger_counts(slot.value)
    if lane is Lane.LINT:
        if isinstance(inputs.lint, LoadedLint):
            report = inputs.lint.value
            return {"findings": len(report.findings), "files_scanned": report.files_scanned}
        return {}
    if lane is Lane.GATE:
        if inputs.diff is None:
            return {}
        return {
            "changed_files": len(inputs.diff.files),
            "gate_inputs": sum(1 for f in inputs.diff.files if f.is_gate_input),
        }
    assert_never(lane)


def _ledger_counts(ledger: AnyLedger) -> dict[str, int]:
    if isinstance(ledger, PropertyLedger):
        return {
            "cases_run": ledger.cases_run,
            "cases_failed": ledger.cases_failed,
            "properties": len(ledger.properties),
            "mutants_planted": ledger.mutants_planted,
            "killed_mutants": ledger.killed_mutants,
            "mutant_budget": ledger.mutant_budget,
            "survived": sum(1 for m in ledger.mutants if m.status is MutantStatus.SURVIVED),
        }
    if isinstance(ledger, FixtureLedger):
        return {
            "cases": len(ledger.cases),
            "cases_matched": sum(1 for c in ledger.cases if c.status.value == "match"),
            "files": len(ledger.files),
            "files_matched": sum(1 for f in ledger.files if f.status.value == "match"),
        }
    if isinstance(ledger, FlakeLedger):
        powers = list(ledger_power(ledger).values())
        return {
            "tests": len(ledger.tests),
            "nondeterministic": sum(1 for t in ledger.tests if not t.deterministic),
            "replays": len(ledger.replays),
            "leases": len(ledger.leases),
            "executions": sum(p.executions for p in powers),
            "weakest_executions": min((p.executions for p in powers), default=0),
            # every test would have shown a flake failing at least this share of its runs (95%)
            "detectable_pct": math.ceil(
                100 * max((p.min_detectable_rate for p in powers), default=1.0)
            ),
        }
    assert_never(ledger)


def _summaries(reasons: Iterable[Reason], inputs: ScoreInputs) -> tuple[LaneSummary, ...]:
    listed = list(reasons)
    out = []
    for lane in _REPORT_LANES:
        fails = sum(1 for r in listed if r.lane is lane and r.severity is Severity.ERROR)
        warns = sum(1 for r in listed if r.lane is lane and r.severity is Severity.WARNING)
        out.append(
            LaneSummary(
                lane=lane.value,
                verdict=(Verdict.FAIL if fails else Verdict.PASS).value,
                fails=fails,
                warns=warns,
                counts={k: _bounded(v) for k, v in _counts(lane, inputs).items()},
            )
        )
    return tuple(out)


def _agreed(inputs: ScoreInputs, field_name: str) -> str | None:
    values = {getattr(s.value, field_name) for s in inputs.loaded()}
    return values.pop() if len(values) == 1 else None


def verdict_of(reasons: Iterable[Reason]) -> Verdict:
    """Pass only when no reason is an error; a warning never fails and never passes on its own."""
    for reason in reasons:
        if reason.severity is Severity.ERROR:
            return Verdict.FAIL
        if reason.severity is Severity.WARNING or reason.severity is Severity.NOTE:
            continue
        assert_never(reason.severity)
    return Verdict.PASS


def score(inputs: ScoreInputs) -> ScoreReport:
    """Score one run. Verdict pass only when every ledger loaded and no row raised an error."""
    reasons = evaluate(inputs)
    verdict = verdict_of(reasons)
    if not inputs.loaded():  # belt and braces: no evidence is never a pass
        verdict = Verdict.FAIL
    digests = [
        LedgerDigest(name=_clip(s.path.rsplit("/", 1)[-1], 200), digest=s.digest)
        for s in inputs.loaded()
    ]
    if isinstance(inputs.lint, LoadedLint):
        digests.append(
            LedgerDigest(
                name=_clip(inputs.lint.path.rsplit("/", 1)[-1], 200), digest=inputs.lint.digest
            )
        )
    return ScoreReport(
        schema_version=SCHEMA_VERSION,
        utc=inputs.now,
        verdict=verdict.value,
        lane_name=_clip(inputs.policy.lane.name, 200),
        lanegate_version=_clip(inputs.version, 100),
        authorship=inputs.authorship,
        run_attempt=max(1, inputs.run_attempt),
        base_commit=_agreed(inputs, "base_commit"),
        head_commit=_agreed(inputs, "head_commit"),
        fails=tuple(_report_reason(r) for r in reasons if r.severity is Severity.ERROR),
        warns=tuple(_report_reason(r) for r in reasons if r.severity is not Severity.ERROR),
        lanes=_summaries(reasons, inputs),
        ledgers=tuple(digests),
    )
