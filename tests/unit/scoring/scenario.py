"""A scoring scenario: the sample evidence with one thing changed, run through bytes -> load -> score."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from lanegate.diff import Change, ChangedFile, DiffSummary, Role
from lanegate.introspection import Introspection
from lanegate.ledgers.load import dump_bytes
from lanegate.ledgers.models import (
    AuthorKind,
    FixtureLedger,
    FlakeLedger,
    LintReport,
    PropertyLedger,
)
from lanegate.model import Lane
from lanegate.policy import Policy
from lanegate.scoring import ScoreInputs, ledger_from_bytes, lint_from_bytes
from lanegate.scoring.evidence import ShardProblem
from lanegate.source_encoding import EncodingDeclaration
from tests.unit.scoring import samples


def changed(path: str, *roles: Role, change: Change = Change.MODIFIED) -> ChangedFile:
    return ChangedFile(path=path, change=change, roles=frozenset(roles))


DEFAULT_FILES = (
    changed("src/calc.py", Role.SOURCE),
    changed("tests/test_calc.py", Role.TEST, change=Change.ADDED),
)


def diff(*files: ChangedFile) -> DiffSummary:
    return DiffSummary(
        base_ref="main",
        base_commit=samples.BASE,
        merge_base=samples.BASE,
        head_commit=samples.HEAD,
        files=files or DEFAULT_FILES,
    )


@dataclass(frozen=True)
class Scenario:
    """Defaults are the passing sample run; `raw` replaces a ledger's bytes (None: missing)."""

    property: PropertyLedger = field(default_factory=samples.property_ledger)
    fixture: FixtureLedger = field(default_factory=samples.fixture_ledger)
    flake: FlakeLedger = field(default_factory=samples.flake_ledger)
    lint: LintReport | None = field(default_factory=samples.lint_report)
    lint_raw: bytes | None = None
    raw: dict[Lane, bytes | None] = field(default_factory=dict)
    diff: DiffSummary | None = field(default_factory=diff)
    authorship: AuthorKind = AuthorKind.AGENT
    run_attempt: int = 1
    expect_jobs: bool = True
    allow_rerun: bool = False
    pr_body: str | None = samples.PR_BODY
    policy: Policy = samples.POLICY
    now: datetime = samples.NOW
    introspection: tuple[Introspection, ...] = ()
    encodings: tuple[EncodingDeclaration, ...] = ()
    planned_mutants: tuple[str, ...] | None = None
    shard_problems: tuple[ShardProblem, ...] = ()
    planned_canaries: tuple[str, ...] | None = None

    def but(self, **changes: Any) -> Scenario:
        return dataclasses.replace(self, **changes)

    def inputs(self) -> ScoreInputs:
        # ScoreInputs is immutable: build (serialize, load, validate) once per scenario
        cached = self.__dict__.get("_inputs")
        if cached is None:
            cached = self._build()
            object.__setattr__(self, "_inputs", cached)
        return cached  # type: ignore[no-any-return]

    def _build(self) -> ScoreInputs:
        ledgers = {}
        models = {Lane.PROPERTY: self.property, Lane.FIXTURE: self.fixture, Lane.FLAKE: self.flake}
        for lane, model in models.items():
            data = self.raw[lane] if lane in self.raw else dump_bytes(model)
            if data is not None:
                ledgers[lane] = ledger_from_bytes(lane, data)
        lint = None
        if self.lint_raw is not None:
            lint = lint_from_bytes(self.lint_raw)
        elif self.lint is not None:
            lint = lint_from_bytes(dump_bytes(self.lint))
        return ScoreInputs(
            ledgers=ledgers,
            policy=self.policy,
            now=self.now,
            authorship=self.authorship,
            run_attempt=self.run_attempt,
            lint=lint,
            diff=self.diff,
            introspection=self.introspection,
            encodings=self.encodings,
            planned_mutants=self.planned_mutants,
            shard_problems=self.shard_problems,
            planned_canaries=self.planned_canaries,
            expect_jobs=self.expect_jobs,
            allow_rerun=self.allow_rerun,
            pr_body=self.pr_body,
        )
