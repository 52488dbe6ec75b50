"""Predicates of the flake lane's rows: replays that must agree, and leases that must stay honest."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime

from lanegate.ledgers.models import (
    LEASE_CLASSES,
    FlakeLedger,
    FlakeTest,
    LeaseEvaluation,
    Outcome,
)
from lanegate.model import Location
from lanegate.scoring.evidence import Hit, RuleContext, duplicates
from lanegate.scoring.flake_power import aftermath, culprits, judged, judged_kinds, power_of
from lanegate.scoring.state_leak import state_leak

_FILE = "flake.json"
_INCOMPLETE = (Outcome.MISSING, Outcome.TIMEOUT, Outcome.ERROR)
_FAILED = (Outcome.FAILED, Outcome.ERROR)
# `lanegate-lease: <test_id> expires <timestamp>` (SPEC 6), anywhere on a line, optionally in
# backticks; the same syntax the flake lane reads.
PR_LEASE_LINE = re.compile(
    r"lanegate-lease:\s*`?(?P<test>[^\s`]+)`?\s+expires\s+`?(?P<when>[^\s`]+)`?", re.IGNORECASE
)


def _test_at(test: FlakeTest) -> Location:
    return Location(_FILE, route=("tests", test.node_id), note=test.node_id)


def _lease_at(lease: LeaseEvaluation) -> Location:
    return Location(_FILE, route=("leases", lease.test_id), note=lease.test_id)


def _batch_counts(test: FlakeTest) -> list[tuple[str, Outcome, int]]:
    """(`r<replay>.<dimension>`, outcome, runs) of every non-empty count of every batch."""
    out = []
    for b in test.batches:
        for outcome, n in (
            (Outcome.PASSED, b.passed),
            (Outcome.FAILED, b.failed),
            (Outcome.ERROR, b.error),
            (Outcome.SKIPPED, b.skipped),
            (Outcome.MISSING, b.missing),
        ):
            if n:
                out.append((f"r{b.replay}.{b.dimension}", outcome, n))
    return out


def _kinds(test: FlakeTest) -> set[Outcome]:
    base = {r.outcome for r in test.replays}
    return base | {o for b in test.batches for o in judged_kinds(b, base)}


def _culprits(ledger: FlakeLedger, leased: set[str]) -> frozenset[str]:
    """Tests whose failed run's aftermath is theirs to answer for: flagged on their own evidence,
    and not in `leased` (`excused`: a leased human flake excuses no one)."""
    return culprits(ledger.tests) - leased


def _judged_tests(
    ledger: FlakeLedger, ctx: RuleContext, flagged: frozenset[str] | None = None
) -> list[FlakeTest]:
    """The ledger's tests as judged: a batch's failures after another test failed in its process
    are set aside only when that test is one of `_culprits`."""
    flagged = _culprits(ledger, excused(ledger, ctx)) if flagged is None else flagged
    return [judged(t, flagged) for t in ledger.tests]


def _outcomes(test: FlakeTest) -> list[str]:
    base = [f"r{r.replay}.{r.repeat}={r.outcome}" for r in test.replays]
    return base + [f"{where}={o} x{n}" for where, o, n in _batch_counts(test)]


def _disagrees(test: FlakeTest) -> bool:
    return not test.deterministic or len(_kinds(test)) > 1


def _disagreement(test: FlakeTest) -> str:
    """What disagreed: the outcomes when they differ; when every run ended alike, what the lane
    saw instead (the same outcome reached two ways, or no run that completed)."""
    kinds = _kinds(test)
    if len(kinds) > 1:
        return f"outcomes disagree across replays ({', '.join(_outcomes(test))})"
    runs = len(test.replays) + sum(n for _, _, n in _batch_counts(test))
    if not kinds:
        return "the lane marked it nondeterministic, and the ledger holds no run of it"
    kind = next(iter(kinds))
    if kind in _INCOMPLETE:
        return f"{kind} in all {runs} runs: no run completed, so none can agree"
    cause = test.reproduce or "the ledger does not say how they differ"
    return f"{kind} in all {runs} runs, but not the same way: {cause}"


def _base(node_id: str) -> str:
    return node_id.split("[", 1)[0]


def _lease_holds(
    lease: LeaseEvaluation, ledger: FlakeLedger, ctx: RuleContext, honour_touched: bool
) -> bool:
    """True when no lease row fails this lease and it has not expired: it may excuse a human flake.
    Only Lane A (`honour_touched`) honours a lease on a test the diff touched."""
    if (
        lease.expires_at <= ctx.now
        or lease.leased_at >= lease.expires_at
        or lease.leased_at > ctx.now
    ):
        return False
    if lease.lease_class not in LEASE_CLASSES or lease.reruns_used > lease.max_reruns:
        return False
    if lease.touched_by_diff and not honour_touched:
        return False
    if not lease.pr_body_checked or lease.pr_body_expires_at != lease.expires_at:
        return False
    if ctx.pr_body is not None:
        dates = parse_pr_leases(ctx.pr_body).get(lease.test_id, [])
        if not dates or any(d != lease.expires_at for d in dates):
            return False
    return sum(1 for other in ledger.leases if other.test_id == lease.test_id) == 1


def excused(ledger: FlakeLedger, ctx: RuleContext, honour_touched: bool = False) -> set[str]:
    """Node ids of disagreeing tests a holding lease excuses: in Lane B never a test the diff
    touched; in Lane A (`honour_touched`) a dated lease holds until it expires."""
    holding = {
        lease.test_id for lease in ledger.leases if _lease_holds(lease, ledger, ctx, honour_touched)
    }
    out: set[str] = set()
    for test in ledger.tests:
        if test.touched_by_diff and not honour_touched:
            continue
        if test.node_id in holding or _base(test.node_id) in holding:
            out.add(test.node_id)
    return out


def nondeterministic(
    ledger: FlakeLedger, ctx: RuleContext, honour_touched: bool = False
) -> Iterator[Hit]:
    """A test whose outcomes disagree across replays (or that the lane marked so) fails, unless a
    holding lease excuses it (a human flake the diff did not touch: see the leased row)."""
    leased = excused(ledger, ctx, honour_touched)
    flagged = _culprits(ledger, leased)
    shaky = [t for t in _judged_tests(ledger, ctx, flagged) if _disagrees(t)]
    notes = aftermath(ledger.tests, flagged)
    for test in shaky:
        # no outcome, or an error, in every run is no disagreement: the incomplete-replay or
        # failed-test row names it, with its reason
        if (
            test.node_id not in leased
            and not _uniformly_incomplete(test)
            and state_leak(test) is None
        ):
            yield Hit(
                f"{test.node_id}: {_disagreement(test)}" + notes.get(test.node_id, ""),
                _test_at(test),
            )
    if not ledger.deterministic and not shaky:
        yield Hit(
            "the ledger says deterministic: false although no test shows it",
            Location(_FILE, route=("deterministic",)),
        )
    if ledger.deterministic and shaky:
        yield Hit(
            "the ledger says deterministic: true but a test disagrees across replays",
            Location(_FILE, route=("deterministic",)),
        )


def nondeterministic_leased(
    ledger: FlakeLedger, ctx: RuleContext, honour_touched: bool = False
) -> Iterator[Hit]:
    """A disagreeing test excused by a holding lease: a known human flake, shown as a warning."""
    leased = excused(ledger, ctx, honour_touched)
    for test in _judged_tests(ledger, ctx, _culprits(ledger, leased)):
        if _disagrees(test) and test.node_id in leased and state_leak(test) is None:
            why = "the diff touched it: a human's dated lease holds until it expires"
            yield Hit(
                f"{test.node_id}: {_disagreement(test)}; "
                f"excused by its lease ({why if test.touched_by_diff else 'the diff did not touch it'})",
                _test_at(test),
            )


def _leaks(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[tuple[FlakeTest, str]]:
    """Each leaking test as judged, with its message (and the failures of others it caused)."""
    flagged = _culprits(ledger, excused(ledger, ctx))
    notes = aftermath(ledger.tests, flagged)
    for test in _judged_tests(ledger, ctx, flagged):
        leak = state_leak(test) if _disagrees(test) else None
        if leak is not None:
            yield test, f"{test.node_id}: {leak.describe()}{notes.get(test.node_id, '')}"


def state_leak_found(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A replayed test fails only when it runs again in its own process: it leaves state behind
    (scoring/state_leak.py). Whether the diff touched the test or not: the leak may come from the
    code the diff changed (a cache it added), as a disagreement would."""
    for _test, message in _leaks(ledger, ctx):
        yield Hit(message, _test_at(_test))


def suite_collection(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """The project's own `pytest` run must collect at head what it collects at the merge base,
    outside the files the diff touched, and fail on no collector the base collects
    (`lanes/flake/suite.py`)."""
    suite = ledger.suite
    where = Location(_FILE, route=("suite",))
    if not suite.ran:
        yield Hit(f"the whole suite was not collected: {suite.detail or 'no record'}", where)
        return
    for error in suite.new_errors:
        yield Hit(
            f"{error.collector} fails to collect in the project's own pytest run at head (not at "
            f"the merge base): {error.detail or 'no detail'}",
            where,
        )
    if suite.lost_count:
        more = (
            f" and {suite.lost_count - len(suite.lost)} more"
            if suite.lost_count > len(suite.lost)
            else ""
        )
        yield Hit(
            f"{suite.lost_count} test(s) outside the files the diff touched are collected at the "
            f"merge base but not at head: {', '.join(suite.lost[:5])}"
            + (" ..." if len(suite.lost) > 5 else "")
            + more,
            where,
        )


def privilege_unchecked(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """No replay kept the file-permission override a root CI job has (lanegate is not root, or
    the sandbox is off), so a test that expects a `PermissionError` on a `chmod 000` file, or one
    that needs the override, was seen one way only."""
    if ledger.tests and not ledger.privilege.ran:
        yield Hit(
            "no replay ran with the file-permission override a root CI job has, so tests that "
            f"depend on file permissions were seen one way only: {ledger.privilege.detail}",
            Location(_FILE, route=("privilege",)),
        )


def nondeterministic_lane_a(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Lane A's `nondeterministic`: a holding dated lease excuses a test the human touched too."""
    yield from nondeterministic(ledger, ctx, honour_touched=True)


def nondeterministic_leased_lane_a(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Lane A's `nondeterministic_leased`: the touched tests a holding lease excuses included."""
    yield from nondeterministic_leased(ledger, ctx, honour_touched=True)


def test_failed(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A new or changed test that fails in every replay: deterministic, and wrong."""
    for test in _judged_tests(ledger, ctx):
        outcomes = _kinds(test)
        if outcomes and outcomes <= set(_FAILED) and len(outcomes) == 1:
            yield Hit(
                f"{test.node_id}: {next(iter(outcomes))} in every replay{_why(test)}",
                _test_at(test),
            )


def replay_incomplete(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A replay whose outcome is missing, timed out or errored is not a replay that agreed."""
    for test in ledger.tests:
        bad = [
            f"r{r.replay}.{r.repeat}={r.outcome}" for r in test.replays if r.outcome in _INCOMPLETE
        ]
        bad += [f"{where}={o} x{n}" for where, o, n in _batch_counts(test) if o in _INCOMPLETE]
        if bad:
            yield Hit(f"{test.node_id}: {', '.join(bad)}{_why(test)}", _test_at(test))
    for record in ledger.replays:
        if record.timed_out:
            yield Hit(
                f"replay {record.replay} hit the wall clock after {record.seconds:.1f}s",
                Location(_FILE, route=("replays", record.replay)),
            )


def _uniformly_incomplete(test: FlakeTest) -> bool:
    kinds = _kinds(test)
    return len(kinds) == 1 and kinds <= {Outcome.MISSING, Outcome.TIMEOUT, Outcome.ERROR}


def _why(test: FlakeTest) -> str:
    """`; <reason>` when the lane recorded why the test has no outcome ("" otherwise)."""
    return f"; {test.detail}" if test.detail else ""


def too_few_replays(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Each test must run in at least `min_replays` fresh processes."""
    need = ctx.policy.authorship.min_replays
    if ledger.min_replays < need:
        yield Hit(
            f"the ledger's min_replays is {ledger.min_replays}, the policy needs {need}",
            Location(_FILE, route=("min_replays",)),
        )
    if ledger.tests and len({r.replay for r in ledger.replays}) < need:
        yield Hit(
            f"{len({r.replay for r in ledger.replays})} replay processes recorded, "
            f"the policy needs {need}",
            Location(_FILE, route=("replays",)),
        )
    for test in ledger.tests:
        count = len({r.replay for r in test.replays})
        if count < need:
            yield Hit(f"{test.node_id}: {count} replays, the policy needs {need}", _test_at(test))


def low_power(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Each test's recorded executions must catch, with 95% confidence, a flake failing
    `flake.detect_rate` of its runs (computed from the runs, not from the ledger's own claim)."""
    need = ctx.policy.flake.detect_rate
    for test in _judged_tests(ledger, ctx):
        power = power_of(test)
        if power.min_detectable_rate > need:
            yield Hit(
                f"{test.node_id}: {power.executions} executions catch only a flake failing "
                f">= {power.min_detectable_rate:.1%} of runs; flake.detect_rate asks for "
                f"{need:.1%}",
                _test_at(test),
            )


def test_skipped(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A test the diff touched that is skipped in every replay proves nothing (a warning: it is
    not evidence either way). An untouched test replayed beside it (a possible polluter) that its
    marks skip is the base's, as it was before the diff."""
    for test in _judged_tests(ledger, ctx):
        if test.touched_by_diff and test.replays and _kinds(test) == {Outcome.SKIPPED}:
            yield Hit(f"{test.node_id}: skipped in every replay", _test_at(test))


def lease_class(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A lease's class must be timing, order or environment."""
    for lease in ledger.leases:
        if lease.lease_class not in LEASE_CLASSES:
            yield Hit(
                f"lease on {lease.test_id}: class {lease.lease_class!r} is not one of "
                f"{', '.join(LEASE_CLASSES)}",
                _lease_at(lease),
            )


def lease_expired(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A lease past its expiry with no root cause recorded: fail closed."""
    for lease in ledger.leases:
        if lease.expires_at <= ctx.now and lease.root_cause_hash is None:
            yield Hit(
                f"lease on {lease.test_id} expired {_iso(lease.expires_at)} with no root_cause_hash",
                _lease_at(lease),
            )


def lease_reruns(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A lease that used more reruns than it allows."""
    for lease in ledger.leases:
        if lease.reruns_used > lease.max_reruns:
            yield Hit(
                f"lease on {lease.test_id}: {lease.reruns_used} reruns used, {lease.max_reruns} "
                "allowed",
                _lease_at(lease),
            )


def lease_touched(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Lane B honours no lease on a test the agent's diff touched (a Lane B row only)."""
    for lease in ledger.leases:
        if lease.touched_by_diff:
            yield Hit(
                f"lease on {lease.test_id}: the agent's diff touched this test; Lane B ignores "
                "the lease",
                _lease_at(lease),
            )


def lease_active(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """An active lease without a root cause is allowed, with a warning that says when it ends."""
    for lease in ledger.leases:
        if lease.expires_at > ctx.now and lease.root_cause_hash is None:
            yield Hit(
                f"lease on {lease.test_id} ({lease.lease_class}) is active until "
                f"{_iso(lease.expires_at)} with no root cause",
                _lease_at(lease),
            )


def lease_invalid(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A lease must start before it ends, not in the future, and each test has at most one."""
    for lease in ledger.leases:
        if lease.leased_at >= lease.expires_at:
            yield Hit(
                f"lease on {lease.test_id}: leased_at is not before expires_at", _lease_at(lease)
            )
        if lease.leased_at > ctx.now:
            yield Hit(f"lease on {lease.test_id}: leased_at is in the future", _lease_at(lease))
    ids = [lease.test_id for lease in ledger.leases]
    for test_id in duplicates(ids):
        yield Hit(f"{test_id} has more than one lease", Location(_FILE, route=("leases", test_id)))


def parse_pr_leases(body: str) -> dict[str, list[datetime | None]]:
    """Every `lanegate-lease:` line of a PR body: test id -> the expiries shown (None if unreadable)."""
    found: dict[str, list[datetime | None]] = {}
    for line in body.splitlines():
        match = PR_LEASE_LINE.search(line)
        if match is None:
            continue
        when: datetime | None
        try:
            when = datetime.fromisoformat(match["when"].replace("Z", "+00:00"))
        except ValueError:
            when = None
        if when is not None and when.tzinfo is None:
            when = None
        found.setdefault(match["test"], []).append(when)
    return found


def lease_not_in_pr(ledger: FlakeLedger, ctx: RuleContext) -> Iterator[Hit]:
    """SPEC 6: each lease's expires_at must also appear, with the same instant, in the PR body."""
    shown = parse_pr_leases(ctx.pr_body) if ctx.pr_body is not None else None
    for lease in ledger.leases:
        if not lease.pr_body_checked:
            yield Hit(f"lease on {lease.test_id}: the PR body was not checked", _lease_at(lease))
        elif lease.pr_body_expires_at != lease.expires_at:
            got = _iso(lease.pr_body_expires_at) if lease.pr_body_expires_at else "nothing"
            yield Hit(
                f"lease on {lease.test_id}: expires {_iso(lease.expires_at)} but the PR body "
                f"shows {got}",
                _lease_at(lease),
            )
        if shown is None:
            continue
        dates = shown.get(lease.test_id, [])
        if not dates:
            yield Hit(
                f"lease on {lease.test_id}: no 'lanegate-lease: {lease.test_id} expires "
                f"{_iso(lease.expires_at)}' line in the PR body",
                _lease_at(lease),
            )
        elif any(d is None or d != lease.expires_at for d in dates):
            yield Hit(
                f"lease on {lease.test_id}: the PR body shows another expiry than "
                f"{_iso(lease.expires_at)}",
                _lease_at(lease),
            )


def _iso(value: datetime) -> str:
    return value.isoformat().replace("+00:00", "Z")
