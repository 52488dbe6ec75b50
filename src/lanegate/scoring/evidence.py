"""What a decision-table row looks at: loaded ledgers or load failures, the run's context, and hits."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from lanegate._version import __version__
from lanegate.diff import DiffSummary
from lanegate.introspection import Introspection
from lanegate.ledgers.models import (
    FIXTURE_WRITER,
    FLAKE_WRITER,
    PROPERTY_WRITER,
    AuthorKind,
    FixtureLedger,
    FlakeLedger,
    LintReport,
    PropertyLedger,
)
from lanegate.model import Lane, Location
from lanegate.policy import Policy
from lanegate.source_encoding import EncodingDeclaration

AnyLedger = PropertyLedger | FixtureLedger | FlakeLedger

# The three lanes whose ledgers the scorer requires, in report order.
LEDGER_LANES: tuple[Lane, ...] = (Lane.PROPERTY, Lane.FIXTURE, Lane.FLAKE)
WRITERS: Mapping[Lane, str] = {
    Lane.PROPERTY: PROPERTY_WRITER,
    Lane.FIXTURE: FIXTURE_WRITER,
    Lane.FLAKE: FLAKE_WRITER,
}
LEDGER_FILES: Mapping[Lane, str] = {
    Lane.PROPERTY: "property.json",
    Lane.FIXTURE: "fixture.json",
    Lane.FLAKE: "flake.json",
}


class FailureKind(StrEnum):
    """Why a ledger could not be used: each maps to its own rule id."""

    MISSING = "missing"
    INVALID = "invalid"
    WRITER = "writer"


@dataclass(frozen=True, slots=True)
class LoadedLedger:
    """A ledger that parsed and validated, the sha256 of its bytes and where it came from."""

    value: AnyLedger
    digest: str
    path: str


@dataclass(frozen=True, slots=True)
class LoadedLint:
    """A lint report that parsed and validated."""

    value: LintReport
    digest: str
    path: str


@dataclass(frozen=True, slots=True)
class LoadFailure:
    """A ledger or report that could not be used, with the one-line reason the loader gave."""

    kind: FailureKind
    message: str
    path: str


LedgerSlot = LoadedLedger | LoadFailure
LintSlot = LoadedLint | LoadFailure


def lane_of(ledger: AnyLedger) -> Lane:
    """The lane that writes `ledger`."""
    if isinstance(ledger, PropertyLedger):
        return Lane.PROPERTY
    if isinstance(ledger, FixtureLedger):
        return Lane.FIXTURE
    return Lane.FLAKE


@dataclass(frozen=True, slots=True)
class ShardProblem:
    """Why the shard ledgers of one lane could not be merged: a `shard-*` rule id, the lane, a
    one-line message, and the file it concerns when there is one (`lanegate.sharding.merge`)."""

    rule_id: str
    lane: Lane
    message: str
    path: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleContext:
    """What every predicate may consult besides its evidence. `now` is a value, never a clock read."""

    policy: Policy
    now: datetime
    authorship: AuthorKind
    pr_body: str | None = None
    run_attempt: int | None = None
    expect_jobs: bool = False
    allow_rerun: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreInputs:
    """Everything `score` decides on. Pure data: the caller reads files and the clock.

    `ledgers` maps each lane to its loaded ledger or its load failure; a lane absent from the mapping
    is a missing ledger. `run_attempt` is the scorer's own attempt (GITHUB_RUN_ATTEMPT).
    `allow_rerun` is the caller's explicit opt-out: a re-run is then a warning, not a fail.
    """

    ledgers: Mapping[Lane, LedgerSlot]
    policy: Policy
    now: datetime
    authorship: AuthorKind = AuthorKind.AGENT
    run_attempt: int = 1
    lint: LintSlot | None = None
    diff: DiffSummary | None = None
    # what the diff's own code does to inspect its test run (`lanegate.introspection.scan_diff`)
    introspection: tuple[Introspection, ...] = ()
    # encoding declarations the diff adds or changes (`lanegate.source_encoding.scan_diff`)
    encodings: tuple[EncodingDeclaration, ...] = ()
    # the mutant ids the diff plants, re-derived by the caller from the repository (None: not derived)
    planned_mutants: tuple[str, ...] | None = None
    # why the shard ledgers did not merge into a lane's ledger (empty: unsharded, or merged cleanly)
    shard_problems: tuple[ShardProblem, ...] = ()
    # the canary ids re-derived with the property ledger's own canary_seed (None: not derived)
    planned_canaries: tuple[str, ...] | None = None
    expect_jobs: bool = False
    allow_rerun: bool = False
    pr_body: str | None = None
    version: str = __version__

    def context(self) -> RuleContext:
        """The rule context of this run."""
        return RuleContext(
            policy=self.policy,
            now=self.now,
            authorship=self.authorship,
            pr_body=self.pr_body,
            run_attempt=self.run_attempt,
            expect_jobs=self.expect_jobs,
            allow_rerun=self.allow_rerun,
        )

    def slot(self, lane: Lane) -> LedgerSlot:
        """The slot of `lane`; an absent lane is a missing ledger."""
        found = self.ledgers.get(lane)
        if found is None:
            return LoadFailure(FailureKind.MISSING, "no ledger was given", LEDGER_FILES[lane])
        return found

    def loaded(self) -> list[LoadedLedger]:
        """The ledgers that loaded, in lane order."""
        return [s for lane in LEDGER_LANES if isinstance(s := self.slot(lane), LoadedLedger)]


@dataclass(frozen=True, slots=True)
class SlotEvidence:
    """One lane's slot: what slot-scoped rows (missing, invalid, writer, run_attempt, ...) look at."""

    lane: Lane
    slot: LedgerSlot


def duplicates(items: Iterable[str]) -> list[str]:
    """The values that occur more than once, sorted (linear: ledgers may list thousands of records)."""
    return sorted(value for value, n in Counter(items).items() if n > 1)


@dataclass(frozen=True, slots=True)
class Hit:
    """One firing of a row: the message, and where when known (default: the ledger file)."""

    message: str
    location: Location | None = None
