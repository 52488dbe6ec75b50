"""Passing sample ledgers (as models) that tests mutate one field at a time, and the sample policy."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any, TypeVar

from lanegate.ledgers.models import (
    FIXTURE_WRITER,
    FLAKE_WRITER,
    LINT_WRITER,
    PROPERTY_SCHEMA_VERSION,
    PROPERTY_WRITER,
    AuthorKind,
    CaseStatus,
    Dimension,
    FileStatus,
    FixtureCaseResult,
    FixtureFile,
    FixtureLedger,
    FlakeLedger,
    FlakeTest,
    KillKind,
    LeaseEvaluation,
    LintReport,
    LockfileState,
    Mutant,
    MutantStatus,
    Outcome,
    PrivilegeCondition,
    PropertyLedger,
    PropertyRun,
    ReplayOutcome,
    ReplayRecord,
    RunBatch,
    SandboxLimitsRecord,
    SandboxRecord,
    SuiteCollection,
)
from lanegate.policy import Policy
from lanegate.scoring.flake_power import power_of

T = TypeVar("T")

NOW = datetime(2026, 11, 29, 22, 0, tzinfo=UTC)
CREATED = datetime(2026, 11, 29, 21, 50, tzinfo=UTC)
BASE = "1" * 40
HEAD = "2" * 40
POLICY = Policy()


def digest(char: str) -> str:
    return "sha256:" + char * 64


def replace(value: T, **changes: Any) -> T:
    return dataclasses.replace(value, **changes)  # type: ignore[type-var]


SANDBOX = SandboxRecord(
    mode="bwrap",
    tool="bubblewrap 0.8.0",
    network=False,
    process_cap="rlimit",
    limits=SandboxLimitsRecord(
        memory_mb=4096, processes=256, file_mb=1024, disk_mb=2048, open_files=1024
    ),
)


def _envelope(writer: str, job: str) -> dict[str, Any]:
    return {
        "schema_version": PROPERTY_SCHEMA_VERSION if writer == PROPERTY_WRITER else 1,
        "writer": writer,
        "lane_name": "agent-score",
        "suite_id": "sample-suite",
        "run_attempt": 1,
        "base_commit": BASE,
        "head_commit": HEAD,
        "lanegate_version": "0.1.0",
        "job": job,
        "created_utc": CREATED,
        "sandbox": SANDBOX,
    }


def mutant(n: int, status: MutantStatus = MutantStatus.KILLED) -> Mutant:
    killed = status is MutantStatus.KILLED
    return Mutant(
        id=f"m-{n:012x}",
        operator="compare-flip",
        path="src/calc.py",
        line=10 + n,
        column=4,
        original="if a < b:",
        replacement="if a >= b:",
        status=status,
        killed_by="tests/test_calc.py::test_order" if killed else None,
        kill_kind=KillKind.PROPERTY if killed else None,
        seconds=0.2,
    )


def property_ledger() -> PropertyLedger:
    """5 mutants, 4 killed by a property; budget ceil(0.6 x 5) = 3; 200 cases, none failed."""
    mutants = (*(mutant(i) for i in range(4)), mutant(4, MutantStatus.SURVIVED))
    return PropertyLedger(
        **_envelope(PROPERTY_WRITER, "property"),
        seed=0,
        command=("python", "-m", "pytest", "-p", "no:randomly", "tests/test_calc.py"),
        effective_settings={"derandomize": True, "max_examples": 100},
        new_test_files=("tests/test_calc.py",),
        oracle_findings=(),
        cases_run=200,
        cases_failed=0,
        properties=(
            PropertyRun(
                node_id="tests/test_calc.py::test_order",
                cases_run=100,
                cases_failed=0,
                max_examples=100,
                max_examples_cut=False,
                passed_oracle_check=True,
                oracle_reached=100,
                code_reached=240,
            ),
            PropertyRun(
                node_id="tests/test_calc.py::test_sum",
                cases_run=100,
                cases_failed=0,
                max_examples=100,
                max_examples_cut=False,
                passed_oracle_check=True,
                oracle_reached=100,
                code_reached=240,
            ),
        ),
        diff_digest=digest("d"),
        operator_version="1",
        mutants_planted=5,
        killed_mutants=4,
        mutant_budget=3,
        mutant_kill_ratio=0.6,
        mutants=mutants,
    )


def fixture_ledger() -> FixtureLedger:
    return FixtureLedger(
        **_envelope(FIXTURE_WRITER, "fixture"),
        authorship=AuthorKind.AGENT,
        fixtures_dir="tests/fixtures",
        no_fixtures=False,
        lockfile=LockfileState(
            path="tests/fixtures.lock.json",
            base_digest=digest("1"),
            head_digest=digest("1"),
            changed=False,
        ),
        files=(
            FixtureFile(
                path="tests/fixtures/in.json",
                locked_digest=digest("a"),
                actual_digest=digest("a"),
                status=FileStatus.MATCH,
            ),
            FixtureFile(
                path="tests/fixtures/out.json",
                locked_digest=digest("b"),
                actual_digest=digest("b"),
                status=FileStatus.MATCH,
            ),
        ),
        cases=(
            FixtureCaseResult(
                id="calc-basic",
                input_digest=digest("a"),
                expected_digest=digest("b"),
                actual_digest=digest("b"),
                status=CaseStatus.MATCH,
                detail="",
            ),
        ),
    )


def replay(n: int, outcome: Outcome = Outcome.PASSED) -> ReplayOutcome:
    return ReplayOutcome(
        replay=n,
        repeat=0,
        outcome=outcome,
        seconds=0.01,
        hash_seed=1000 + n,
        order="reversed" if n % 2 else "forward",
        order_seed=n,
        tz=("UTC", "XYZ-5", "ABC+3")[n % 3],
    )


def batch(n: int, outcome: Outcome = Outcome.PASSED, runs: int = 30) -> RunBatch:
    """A repeat batch of replay `n` whose runs all went `outcome`."""
    counts = {o.value: runs if o is outcome else 0 for o in Outcome if o is not Outcome.TIMEOUT}
    return RunBatch(
        replay=n,
        dimension=Dimension.REPEAT,
        runs=runs,
        passed=counts["passed"],
        failed=counts["failed"],
        error=counts["error"],
        skipped=counts["skipped"],
        missing=counts["missing"] + (runs if outcome is Outcome.TIMEOUT else 0),
        first_failed_run=0 if outcome is Outcome.FAILED else None,
        first_passed_run=0 if outcome is Outcome.PASSED else None,
        seconds=0.01,
        detail="",
    )


def flake_test(
    node_id: str, outcomes: tuple[Outcome, ...] = (Outcome.PASSED,) * 3, touched: bool = True
) -> FlakeTest:
    """A test whose base runs went `outcomes`, with a repeat batch like its first outcome."""
    test = FlakeTest(
        node_id=node_id,
        deterministic=len(set(outcomes)) == 1,
        touched_by_diff=touched,
        replays=tuple(replay(i, o) for i, o in enumerate(outcomes)),
        batches=(batch(1, outcomes[0]),) if outcomes else (),
    )
    return replace(test, power=power_of(test))


def record(n: int) -> ReplayRecord:
    return ReplayRecord(
        replay=n,
        command=("python", "-m", "pytest", "-p", "no:randomly", "tests/test_calc.py"),
        hash_seed=1000 + n,
        order="reversed" if n % 2 else "forward",
        order_seed=n,
        tz=("UTC", "XYZ-5", "ABC+3")[n % 3],
        in_process_repeats=1,
        exit_code=0,
        seconds=0.4,
        timed_out=False,
    )


LEASE_EXPIRES = datetime(2099, 1, 1, tzinfo=UTC)


def lease(test_id: str = "tests/test_io.py::test_socket", **changes: Any) -> LeaseEvaluation:
    base = LeaseEvaluation(
        test_id=test_id,
        lease_class="environment",
        leased_at=datetime(2026, 11, 1, tzinfo=UTC),
        expires_at=LEASE_EXPIRES,
        root_cause_hash="abcdef1",
        max_reruns=2,
        reruns_used=0,
        touched_by_diff=False,
        pr_body_checked=True,
        pr_body_expires_at=LEASE_EXPIRES,
    )
    return replace(base, **changes)


def flake_ledger() -> FlakeLedger:
    return FlakeLedger(
        **_envelope(FLAKE_WRITER, "flake"),
        authorship=AuthorKind.AGENT,
        deterministic=True,
        min_replays=3,
        replays=tuple(record(i) for i in range(3)),
        tests=(
            flake_test("tests/test_calc.py::test_order"),
            flake_test("tests/test_calc.py::test_sum"),
        ),
        leases=(lease(),),
        suite=SuiteCollection(ran=True, head_tests=12, base_tests=10),
        privilege=PrivilegeCondition(ran=True),
    )


def lint_report() -> LintReport:
    return LintReport(
        schema_version=1,
        writer=LINT_WRITER,
        lanegate_version="0.1.0",
        mode="lane-b",
        files_scanned=4,
        findings=(),
    )


PR_BODY = f"Adds ordering.\n\nlanegate-lease: tests/test_io.py::test_socket expires {LEASE_EXPIRES.isoformat()}\n"
