"""Predicates of the fixture lane's rows: fixture bytes vs the base-ref lockfile, and replayed cases."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.ledgers.models import CaseStatus, FileStatus, FixtureLedger
from lanegate.model import Location
from lanegate.scoring.evidence import Hit, RuleContext, duplicates

_FILE = "fixture.json"


def _case_at(case_id: str) -> Location:
    return Location(_FILE, route=("cases", case_id))


def drift(ledger: FixtureLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Fixture bytes differ from the digest the base-ref lockfile holds."""
    for f in ledger.files:
        if f.status is FileStatus.DRIFT:
            yield Hit(
                f"bytes changed ({f.actual_digest}) but the base-ref lockfile says "
                f"{f.locked_digest}",
                Location(f.path, note="fixture drift"),
            )
    for case in ledger.cases:
        if case.status is CaseStatus.DRIFT:
            yield Hit(f"case {case.id}: its fixture input drifted", _case_at(case.id))


def file_missing(ledger: FixtureLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A file the lockfile lists is gone."""
    for f in ledger.files:
        if f.status is FileStatus.MISSING:
            yield Hit("listed in the base-ref lockfile but missing", Location(f.path))


def unlocked(ledger: FixtureLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A fixture file has no digest in the base-ref lockfile (when require_digest)."""
    if not ctx.policy.fixtures.require_digest:
        return
    for f in ledger.files:
        if f.status is FileStatus.UNLOCKED:
            yield Hit("no digest in the base-ref lockfile", Location(f.path))


def lockfile_by_agent(ledger: FixtureLedger, ctx: RuleContext) -> Iterator[Hit]:
    """The agent's diff changed the lockfile: the fixture writer would be the agent."""
    if ledger.lockfile.changed:
        yield Hit(
            f"the lockfile was changed by an agent diff "
            f"({ledger.lockfile.base_digest} -> {ledger.lockfile.head_digest})",
            Location(ledger.lockfile.path),
        )


def oracle_mismatch(ledger: FixtureLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A replayed case's output differs from its expected bytes (or a digest is absent)."""
    for case in ledger.cases:
        if case.status is CaseStatus.ORACLE_MISMATCH:
            yield Hit(
                f"case {case.id}: expected {case.expected_digest}, got {case.actual_digest}",
                _case_at(case.id),
            )
        elif case.status is CaseStatus.MATCH and (
            case.expected_digest is None
            or case.actual_digest is None
            or case.input_digest is None
            or case.expected_digest != case.actual_digest
        ):
            yield Hit(
                f"case {case.id}: status match but expected {case.expected_digest}, "
                f"actual {case.actual_digest}",
                _case_at(case.id),
            )


def case_not_run(ledger: FixtureLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A case whose replay is missing, timed out or crashed is no evidence of a match."""
    bad = (CaseStatus.MISSING, CaseStatus.TIMEOUT, CaseStatus.ERROR)
    for case in ledger.cases:
        if case.status in bad:
            detail = f": {case.detail}" if case.detail else ""
            yield Hit(f"case {case.id}: {case.status}{detail}", _case_at(case.id))


def no_cases(ledger: FixtureLedger, ctx: RuleContext) -> Iterator[Hit]:
    """An empty case list passes only when the ledger says no_fixtures and the policy allows none."""
    if ledger.cases:
        return
    if ledger.no_fixtures and ctx.policy.fixtures.allow_none:
        return
    why = (
        "the policy does not set fixtures.allow_none"
        if ledger.no_fixtures
        else "the ledger does not say no_fixtures"
    )
    yield Hit(f"no fixture case was replayed and {why}", Location(_FILE, route=("cases",)))


def case_not_replayed(ledger: FixtureLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Every case the policy declares must appear in the ledger."""
    present = {case.id for case in ledger.cases}
    for case in ctx.policy.fixtures.cases:
        if case.id not in present:
            yield Hit(f"policy case {case.id} is not in the ledger", _case_at(case.id))


def inconsistent(ledger: FixtureLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Records that contradict themselves: duplicates, a 'match' whose digests differ, and so on."""
    ids = [c.id for c in ledger.cases]
    for case_id in duplicates(ids):
        yield Hit(f"case {case_id} is listed more than once", _case_at(case_id))
    paths = [f.path for f in ledger.files]
    for path in duplicates(paths):
        yield Hit(
            f"fixture file {path} is listed more than once", Location(_FILE, route=("files",))
        )
    for f in ledger.files:
        if f.status is FileStatus.MATCH and (
            f.locked_digest is None or f.locked_digest != f.actual_digest
        ):
            yield Hit(
                f"{f.path}: status match but locked {f.locked_digest}, actual {f.actual_digest}",
                Location(f.path),
            )
    lock = ledger.lockfile
    if lock.changed != (lock.base_digest != lock.head_digest):
        yield Hit(
            f"lockfile.changed is {str(lock.changed).lower()} but its digests are "
            f"{lock.base_digest} and {lock.head_digest}",
            Location(_FILE, route=("lockfile",)),
        )
    if ledger.no_fixtures and (ledger.files or ledger.cases):
        yield Hit(
            "no_fixtures is true but the ledger lists fixture files or cases",
            Location(_FILE, route=("no_fixtures",)),
        )
