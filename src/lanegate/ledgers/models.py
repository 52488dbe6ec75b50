"""The ledger and report shapes (SPEC section 4 and 5), as frozen dataclasses.

These classes are the public contract: their JSON Schemas are generated from them
(`lanegate.ledgers.schemas`) and shipped as files. Every field is required in JSON; optional values are
written as `null`. Changing a document's fields means bumping its version: `SCHEMA_VERSION` for
the documents that share it, `PROPERTY_SCHEMA_VERSION` for property.json (2: revert mutants, changed
functions and the behaviour diff).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from lanegate.ledgers.dimension import Dimension as Dimension  # re-exported

SCHEMA_VERSION = 1
PROPERTY_SCHEMA_VERSION = 2
COMMIT_PATTERN = r"^[0-9a-f]{40}([0-9a-f]{24})?$"
DIGEST_PATTERN = r"^sha256:[0-9a-f]{64}$"
ROOT_CAUSE_PATTERN = r"^(sha256:[0-9a-f]{64}|[0-9a-f]{7,64})$"

PROPERTY_WRITER = "property-runner"
FIXTURE_WRITER = "fixture-runner"
FLAKE_WRITER = "flake-runner"
LINT_WRITER = "lint-runner"


def _meta(**kwargs: Any) -> Any:
    return field(metadata=kwargs)


def _version(version: int = SCHEMA_VERSION) -> Any:
    return _meta(const=version, minimum=1, description="bumped on any incompatible change")


def _commit() -> Any:
    return _meta(pattern=COMMIT_PATTERN)


def _digest() -> Any:
    return _meta(pattern=DIGEST_PATTERN)


def _text(max_length: int = 4096) -> Any:
    return _meta(maxLength=max_length)


# --- shared envelope -----------------------------------------------------------------------------
# Every lane ledger starts with the same provenance fields (SPEC 4, last paragraph). They are repeated
# in each class (not inherited) so that JSON key order stays readable and the schema stays flat.


class AuthorKind(StrEnum):
    """Who wrote the diff. Unknown authorship is recorded as agent (SPEC 1)."""

    AGENT = "agent"
    HUMAN = "human"


# --- the sandbox the evidence ran in (SPEC 9) ------------------------------------------------------


SANDBOX_MODES = ("bwrap", "none")
PROCESS_CAPS = ("rlimit", "cgroup", "none")


@dataclass(frozen=True, slots=True, kw_only=True)
class SandboxLimitsRecord:
    """The resource limits every sandboxed process ran under."""

    memory_mb: int = _meta(minimum=0)
    processes: int = _meta(minimum=0)
    file_mb: int = _meta(minimum=0)
    disk_mb: int = _meta(minimum=0)
    open_files: int = _meta(minimum=0)


@dataclass(frozen=True, slots=True, kw_only=True)
class SandboxRecord:
    """How the lane isolated the head's code: `mode` "none" means `--no-sandbox` was given."""

    mode: str = field(default="none", metadata={"enum": SANDBOX_MODES})
    tool: str = field(default="", metadata={"maxLength": 200})
    network: bool = True
    process_cap: str = field(default="none", metadata={"enum": PROCESS_CAPS})
    limits: SandboxLimitsRecord | None = None


# --- property.json ---------------------------------------------------------------------------------


class MutantStatus(StrEnum):
    """What became of a planted mutant. A timeout (or a child over the memory cap) is never a kill;
    it is counted as detected (`Mutant.detected`) only under the conditions the lane records."""

    KILLED = "killed"
    SURVIVED = "survived"
    TIMEOUT = "timeout"
    MEMORY = "memory"
    NO_TESTS = "no_tests"
    ERROR = "error"


class KillKind(StrEnum):
    """Which kind of test killed a mutant: only property kills count towards the budget."""

    PROPERTY = "property"
    UNIT = "unit"


@dataclass(frozen=True, slots=True, kw_only=True)
class PropertyRun:
    """One Hypothesis property as it ran: cases counted from Hypothesis itself, not from logs."""

    node_id: str = _text()
    cases_run: int = 0
    cases_failed: int = 0
    max_examples: int = 0
    max_examples_cut: bool = False
    # Hypothesis's generate phase ran (False: `phases` without `generate`, only @example cases)
    generates: bool = True
    passed_oracle_check: bool = False
    # calls of a trusted oracle made at run time from the lines that passed the oracle check
    oracle_reached: int = field(default=0, metadata={"minimum": 0})
    # calls into the repository's own code (not tests, not the oracle module) while the test ran
    code_reached: int = field(default=0, metadata={"minimum": 0})


@dataclass(frozen=True, slots=True, kw_only=True)
class OracleFinding:
    """A new or changed test that does not call a property oracle on its own inputs."""

    path: str = _text()
    line: int = _meta(minimum=1)
    test: str = _text()
    reason: str = _text()


@dataclass(frozen=True, slots=True, kw_only=True)
class Mutant:
    """One planted mutant of a changed line, and what the selected tests did to it."""

    id: str = _meta(pattern=r"^m-[0-9a-f]{12,64}$")
    operator: str = _text(100)
    path: str = _text()
    line: int = _meta(minimum=1)
    column: int = 0
    original: str = _text()
    replacement: str = _text()
    status: MutantStatus = MutantStatus.SURVIVED
    killed_by: str | None = _text()
    kill_kind: KillKind | None = None
    seconds: float = 0.0
    function: str = field(default="<module>", metadata={"maxLength": 400})
    # Stryker's convention: a timeout (or memory) mutant counts as detected when the test that was
    # running is a trusted property test and the unmutated control ran the same tests well inside
    # the limit (at most half of it); `killed_mutants` counts these with the property kills.
    detected: bool = False
    # a kill's one-line cause (the first failing test's exception type and message), bounded: a
    # revert "killed" only by a call the base cannot take (TypeError at the call, ImportError) or by
    # a name the head removed (NameError) is read from it
    detail: str = field(default="", metadata={"maxLength": 300})


# the operators of revert mutants (the base's code planted into the head): a changed function's
# whole base version, one hunk of it, a module-level hunk
REVERT_OPERATORS = frozenset({"revert", "revert-hunk", "revert-module"})
BEHAVIOUR_VERDICTS = ("differs", "same", "not-compared")
MATCHES = ("same", "renamed", "moved", "module", "rebound")


@dataclass(frozen=True, slots=True, kw_only=True)
class InputSource:
    """Where the behaviour diff's inputs of one function came from, and how many."""

    source: str = _text(100)
    count: int = _meta(minimum=0)


@dataclass(frozen=True, slots=True, kw_only=True)
class BehaviourDifference:
    """One input on which base and head disagree: `clamp(11, 0, 10)`: base `10`, head `0`."""

    call: str = _text(400)
    base: str = _text(400)
    head: str = _text(400)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeEvidence:
    """A function of the head that exists at the merge base (or module-level code, `qualname`
    "<module>") whose code the diff changed: its revert mutants (ids in `mutants`, operators
    `revert`, `revert-hunk`, `revert-module`), the reverts that could not be planted, the verdict
    the scorer derives from them (`revert_verdict`), and the behaviour diff's answer."""

    path: str = _text()
    qualname: str = _text(400)
    base_path: str = _text()
    base_qualname: str = _text(400)
    matched: str = field(default="same", metadata={"enum": MATCHES})
    reverts: tuple[str, ...] = ()
    revert_problems: tuple[str, ...] = ()
    revert_verdict: str = _text(100)
    revert_killed_by: str | None = _text()
    behaviour: str = field(default="not-compared", metadata={"enum": BEHAVIOUR_VERDICTS})
    inputs_tried: int = _meta(minimum=0)
    input_sources: tuple[InputSource, ...] = ()
    differences: tuple[BehaviourDifference, ...] = ()
    behaviour_reason: str = _text()
    behaviour_seconds: float = _meta(minimum=0)


@dataclass(frozen=True, slots=True, kw_only=True)
class UnmutatedLine:
    """A changed executable statement no mutant can be planted on: no evidence reaches it."""

    path: str = _text()
    line: int = _meta(minimum=1)
    what: str = _text()


@dataclass(frozen=True, slots=True, kw_only=True)
class BaseTestChange:
    """A test of the merge base (or the module-level code its file shares) that the diff changed,
    removed or rebound: `test` is its node id ("" for module-level code); `base` and `head` the two
    versions (bounded excerpts, "" where one side has none)."""

    path: str = _text()
    test: str = _text()
    line: int = _meta(minimum=1)
    what: str = _text()
    base: str = _text(400)
    head: str = _text(400)


BASE_TEST_OUTCOMES = ("passed", "failed", "error", "skipped", "skipped-from-code", "missing")


@dataclass(frozen=True, slots=True, kw_only=True)
class BaseTestRun:
    """One test of the merge base, run against the head's code (restored when the diff touched it)."""

    node_id: str = _text()
    outcome: str = field(default="missing", metadata={"enum": BASE_TEST_OUTCOMES})
    restored: bool = False
    detail: str = _text()


RECHECK_VERDICTS = (
    "pre-existing",
    "passes-at-base",
    "flaky-at-base",
    "differs-at-base",
    "not-checked",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class BaseRecheck:
    """A base test that failed or errored at head, re-run on the base's own code (every file the
    diff touched reverted, nothing else changed): `pre-existing` only when it failed the same way
    in every one of `base_outcomes`; any other verdict leaves the head failure standing."""

    node_id: str = _text()
    verdict: str = field(default="not-checked", metadata={"enum": RECHECK_VERDICTS})
    head_outcome: str = field(default="failed", metadata={"enum": BASE_TEST_OUTCOMES})
    head_detail: str = _text()
    base_outcomes: tuple[str, ...] = ()
    base_detail: str = _text()
    reason: str = _text()


BASELINE_MODES = ("full", "coverage-map")


@dataclass(frozen=True, slots=True, kw_only=True)
class BaselineRecord:
    """Which tests the lane's baseline and base-suite runs ran: all (`full`), or the base tests a
    coverage map of the merge base says reach the changed functions (`coverage-map`), and why."""

    mode: str = field(default="full", metadata={"enum": BASELINE_MODES})
    reason: str = field(default="", metadata={"maxLength": 4096})
    map_key: str = field(default="", metadata={"maxLength": 100})
    map_tests: int = field(default=0, metadata={"minimum": 0})
    selected_tests: int = field(default=0, metadata={"minimum": 0})
    changed_functions: tuple[str, ...] = ()
    # the suite runs once: tests traced in the head's process (the diff's test files and any file
    # the base suite does not run as the base has it) and in the base suite's trusted process (the
    # base files the diff left alone, `shared_test_files` of them), why none are shared, and the
    # entries the head's process wrote for tests of shared files (never run there: dropped)
    traced_at_head: int = field(default=0, metadata={"minimum": 0})
    traced_in_base_suite: int = field(default=0, metadata={"minimum": 0})
    shared_test_files: int = field(default=0, metadata={"minimum": 0})
    split_reason: str = field(default="", metadata={"maxLength": 4096})
    dropped_head_entries: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PropertyLedger:
    """property.json: counted Hypothesis cases and planted mutants killed, written by property-runner."""

    schema_version: int = _version(PROPERTY_SCHEMA_VERSION)
    writer: str = _meta(const=PROPERTY_WRITER)
    lane_name: str = _text(200)
    suite_id: str = _text(200)
    run_attempt: int = _meta(minimum=1)
    base_commit: str = _commit()
    head_commit: str = _commit()
    lanegate_version: str = _text(100)
    job: str = _text(200)
    created_utc: datetime = _meta()
    sandbox: SandboxRecord = field(default_factory=lambda: SandboxRecord(mode="none"))
    seed: int = 0
    command: tuple[str, ...] = ()
    effective_settings: dict[str, str | int | float | bool | None] = field(default_factory=dict)
    new_test_files: tuple[str, ...] = ()
    oracle_findings: tuple[OracleFinding, ...] = ()
    cases_run: int = 0
    cases_failed: int = 0
    properties: tuple[PropertyRun, ...] = ()
    diff_digest: str = _digest()
    operator_version: str = _text(100)
    # the per-run secret the planted mutants were drawn with among the diff's candidates
    # (`plant.draw_order`): the scorer re-derives the planted set with it
    mutant_draw: int = field(default=0, metadata={"minimum": 0, "maximum": 2**62 - 1})
    # the draw was fixed (policy `properties.mutant_draw` or `--mutant-draw`), not a secret of the run
    mutant_draw_pinned: bool = False
    mutants_planted: int = 0
    killed_mutants: int = 0
    mutant_budget: int = 0
    mutant_kill_ratio: float = _meta(minimum=0, maximum=1)
    mutants: tuple[Mutant, ...] = ()
    base_test_files: int = field(default=0, metadata={"minimum": 0})
    base_tests: tuple[BaseTestRun, ...] = ()
    base_test_changes: tuple[BaseTestChange, ...] = ()
    # the base tests that did not pass at head, re-run on the base's code (pre-existing failures)
    base_rechecks: tuple[BaseRecheck, ...] = ()
    unmutated: tuple[UnmutatedLine, ...] = ()
    # the per-run secret the canaries were drawn with (written after the run) and the canaries:
    # behaviour-preserving edits planted like mutants, never counted in the budget or the ratio
    canary_seed: int = field(default=0, metadata={"minimum": 0})
    canaries: tuple[Mutant, ...] = ()
    baseline: BaselineRecord = field(default_factory=BaselineRecord)
    # every function (and module-level code) of the head that exists at base and that the diff
    # changed: its reverts, their verdict and the behaviour diff of base and head
    changed_functions: tuple[ChangeEvidence, ...] = ()
    # the behaviour diff's seed (same seed, same inputs) and its whole CPU budget in seconds
    behaviour_seed: int = field(default=0, metadata={"minimum": 0})
    behaviour_cpu_seconds: float = field(default=0.0, metadata={"minimum": 0})


# --- fixture.json ----------------------------------------------------------------------------------


class CaseStatus(StrEnum):
    """Status of one replayed fixture case (SPEC 4, plus timeout and error for hangs and crashes)."""

    MATCH = "match"
    ORACLE_MISMATCH = "oracle_mismatch"
    DRIFT = "drift"
    MISSING = "missing"
    TIMEOUT = "timeout"
    ERROR = "error"


class FileStatus(StrEnum):
    """Status of one fixture file against the base-ref lockfile."""

    MATCH = "match"
    DRIFT = "drift"
    MISSING = "missing"
    UNLOCKED = "unlocked"


@dataclass(frozen=True, slots=True, kw_only=True)
class FixtureCaseResult:
    """One case replayed with fixtures read-only: digests written `sha256:<hex>`."""

    id: str = _text(200)
    input_digest: str | None = _digest()
    expected_digest: str | None = _digest()
    actual_digest: str | None = _digest()
    status: CaseStatus = CaseStatus.MISSING
    detail: str = _text()


@dataclass(frozen=True, slots=True, kw_only=True)
class FixtureFile:
    """One file under the fixture dir, or one lockfile entry whose file is gone."""

    path: str = _text()
    locked_digest: str | None = _digest()
    actual_digest: str | None = _digest()
    status: FileStatus = FileStatus.MISSING


@dataclass(frozen=True, slots=True, kw_only=True)
class LockfileState:
    """The lockfile at the base ref and at head; `changed` means its bytes differ."""

    path: str = _text()
    base_digest: str | None = _digest()
    head_digest: str | None = _digest()
    changed: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class FixtureLedger:
    """fixture.json: fixture bytes against the base-ref lockfile and cases replayed read-only."""

    schema_version: int = _version()
    writer: str = _meta(const=FIXTURE_WRITER)
    lane_name: str = _text(200)
    suite_id: str = _text(200)
    run_attempt: int = _meta(minimum=1)
    base_commit: str = _commit()
    head_commit: str = _commit()
    lanegate_version: str = _text(100)
    job: str = _text(200)
    created_utc: datetime = _meta()
    sandbox: SandboxRecord = field(default_factory=lambda: SandboxRecord(mode="none"))
    authorship: AuthorKind = AuthorKind.AGENT
    fixtures_dir: str = _text()
    no_fixtures: bool = False
    lockfile: LockfileState = field(default_factory=LockfileState)
    files: tuple[FixtureFile, ...] = ()
    cases: tuple[FixtureCaseResult, ...] = ()


# --- flake_leases.json and flake.json ----------------------------------------------------------------


class Outcome(StrEnum):
    """Outcome of one test in one replay; `missing` means the test reported nothing."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    SKIPPED = "skipped"
    TIMEOUT = "timeout"
    MISSING = "missing"


LEASE_CLASSES = ("timing", "order", "environment")


@dataclass(frozen=True, slots=True, kw_only=True)
class Lease:
    """A dated lease on a known human flake, renewed by a human (flake_leases.json)."""

    test_id: str = _text()
    lease_class: str = _meta(json="class", maxLength=100)
    leased_at: datetime = _meta()
    expires_at: datetime = _meta()
    root_cause_hash: str | None = _meta(pattern=ROOT_CAUSE_PATTERN)
    max_reruns: int = 0
    reruns_used: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class LeasesFile:
    """flake_leases.json, kept in the repository."""

    schema_version: int = _version()
    leases: tuple[Lease, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayOutcome:
    """One test's outcome in one replay, with everything that was pinned for it."""

    replay: int = 0
    repeat: int = 0
    outcome: Outcome = Outcome.MISSING
    seconds: float = 0.0
    hash_seed: int = _meta(maximum=4294967295)
    order: str = _text(100)
    order_seed: int | None = None
    tz: str = _text(100)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunBatch:
    """A test's in-process runs in one replay that varied one dimension (`runs` were planned; runs
    that reported nothing, or timed out, count as `missing`). Run `i`'s pins are a pure function of
    the replay's recorded pins, the dimension and `i` (docs/flake-lane.md); `sequence` their outcomes
    in run order. `after_failure_of`
    names the first other test whose failed run had left the process changed (a thread still
    running, the environment, the working directory) before the batch began, and whose passing
    runs leave it as they found it."""

    replay: int = 0
    dimension: Dimension = Dimension.REPEAT
    runs: int = _meta(minimum=1)
    passed: int = 0
    failed: int = 0
    error: int = 0
    skipped: int = 0
    missing: int = 0
    first_failed_run: int | None = None
    first_passed_run: int | None = None
    # the runs' outcomes in run order, a letter each: p(assed), f(ailed), e(rror), s(kipped),
    # m(issing); "" when the replay did not report it
    sequence: str = field(default="", metadata={"maxLength": 1000, "pattern": "^[pfesm]*$"})
    seconds: float = 0.0
    detail: str = field(default="", metadata={"maxLength": 500})
    # when that test is itself flagged, this batch's failures are its aftermath, not this test's
    after_failure_of: str | None = field(default=None, metadata={"maxLength": 2000})


@dataclass(frozen=True, slots=True, kw_only=True)
class DetectionPower:
    """How hard the lane looked at one test: executions that reported an outcome, per dimension
    (distinct values for order, hash seed and zone; runs for the rest), and the smallest per-run
    failure probability that many executions catch with 95% confidence: 1 - 0.05 ** (1 / n)."""

    executions: int = 0
    order: int = 0
    hash_seed: int = 0
    zone: int = 0
    clock: int = 0
    repeat: int = 0
    stress: int = 0
    isolation: int = 0
    cwd: int = 0
    terminal: int = 0
    cpus: int = 0
    dst: int = 0
    calendar: int = 0
    shared_host: int = 0
    env: int = 0
    deschedule: int = 0
    listing: int = 0
    min_detectable_rate: float = field(default=1.0, metadata={"maximum": 1})


@dataclass(frozen=True, slots=True, kw_only=True)
class FlakeTest:
    """One selected test across every replay; deterministic means every outcome agreed.
    `exposed_by` names the dimension of the first disagreement and `reproduce` the exact run."""

    node_id: str = _text()
    deterministic: bool = False
    touched_by_diff: bool = True
    replays: tuple[ReplayOutcome, ...] = ()
    batches: tuple[RunBatch, ...] = ()
    power: DetectionPower = field(default_factory=DetectionPower)
    exposed_by: Dimension | None = None
    reproduce: str | None = field(default=None, metadata={"maxLength": 2000})
    # why no replay has an outcome for it, when the lane knows ("" otherwise): a collection error
    detail: str = field(default="", metadata={"maxLength": 1000})


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplayRecord:
    """One pytest process: what it ran with, so that `lanegate flake --replay N` repeats it."""

    replay: int = 0
    command: tuple[str, ...] = ()
    hash_seed: int = _meta(maximum=4294967295)
    order: str = _text(100)
    order_seed: int | None = None
    tz: str = _text(100)
    in_process_repeats: int = _meta(minimum=1)
    exit_code: int | None = _meta(minimum=-255, maximum=255)
    seconds: float = 0.0
    timed_out: bool = False
    # the replay kept the file-permission override a root CI job has (CAP_DAC_OVERRIDE, ...)
    privileged: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class PrivilegeCondition:
    """Whether one replay ran with the file-permission override a root CI job has and the others
    without it (`ran`), or why not (`detail`: lanegate is not root, the sandbox is off)."""

    ran: bool = False
    detail: str = field(default="", metadata={"maxLength": 500})


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaseEvaluation:
    """A lease as the flake lane saw it: its fields, and what the diff and the PR body say of it."""

    test_id: str = _text()
    lease_class: str = _meta(json="class", maxLength=100)
    leased_at: datetime = _meta()
    expires_at: datetime = _meta()
    root_cause_hash: str | None = _meta(pattern=ROOT_CAUSE_PATTERN)
    max_reruns: int = 0
    reruns_used: int = 0
    touched_by_diff: bool = False
    pr_body_checked: bool = False
    pr_body_expires_at: datetime | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class CollectError:
    """A collector (a module, a conftest, the session) that failed to collect, with pytest's words."""

    collector: str = _text(2000)
    detail: str = _text(500)


@dataclass(frozen=True, slots=True, kw_only=True)
class SuiteCollection:
    """The whole suite collected the way the project's own `pytest` run collects it (its own
    configuration, no paths), at head and at the merge base: `new_errors`, collectors failing at
    head and not at base; `lost`, tests outside the files the diff touched that base collects and
    head does not (at most 50 listed, `lost_count` all of them). `ran` is False, with `detail`
    saying why, when a collection did not finish."""

    ran: bool = False
    head_tests: int = 0
    base_tests: int = 0
    new_errors: tuple[CollectError, ...] = ()
    lost: tuple[str, ...] = ()
    lost_count: int = 0
    detail: str = field(default="", metadata={"maxLength": 500})


@dataclass(frozen=True, slots=True, kw_only=True)
class FlakeLedger:
    """flake.json: new and changed tests replayed under varied pins, and the leases evaluated."""

    schema_version: int = _version()
    writer: str = _meta(const=FLAKE_WRITER)
    lane_name: str = _text(200)
    suite_id: str = _text(200)
    run_attempt: int = _meta(minimum=1)
    base_commit: str = _commit()
    head_commit: str = _commit()
    lanegate_version: str = _text(100)
    job: str = _text(200)
    created_utc: datetime = _meta()
    sandbox: SandboxRecord = field(default_factory=lambda: SandboxRecord(mode="none"))
    authorship: AuthorKind = AuthorKind.AGENT
    deterministic: bool = False
    min_replays: int = _meta(minimum=3)
    replays: tuple[ReplayRecord, ...] = ()
    tests: tuple[FlakeTest, ...] = ()
    leases: tuple[LeaseEvaluation, ...] = ()
    suite: SuiteCollection = field(default_factory=SuiteCollection)
    privilege: PrivilegeCondition = field(
        default_factory=lambda: PrivilegeCondition(detail="not recorded")
    )


# --- lint.json --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class LintFindingRecord:
    """One lint finding as written to lint.json and read by the scorer."""

    rule_id: str = _text(100)
    severity: str = _meta(enum=("error", "warning", "note"))
    message: str = _text()
    path: str = _text()
    line: int | None = _meta(minimum=1)
    column: int | None = _meta(minimum=1)
    fix: str = _text()
    exempted: bool = False
    # lane-b: in what Lane B runs; diff: added by the diff elsewhere; lane-a: the rest (never fails)
    scope: str = field(default="lane-b", metadata={"enum": ("lane-b", "diff", "lane-a")})


@dataclass(frozen=True, slots=True, kw_only=True)
class LintReport:
    """lint.json: every retry or failure-forgiving construct found in the caller's repository."""

    schema_version: int = _version()
    writer: str = _meta(const=LINT_WRITER)
    lanegate_version: str = _text(100)
    mode: str = _meta(enum=("lane-b", "lane-a"))
    files_scanned: int = 0
    # true when made by the gate (`lanegate lint --gate`): findings in the lane-a scope do not fail
    gate: bool = False
    findings: tuple[LintFindingRecord, ...] = ()


# --- score-report.json -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportReason:
    """One fail or warning: a decision-table row that fired, with its lane and location."""

    lane: str = _meta(enum=("property", "fixture", "flake", "lint", "gate"))
    rule_id: str = _text(100)
    severity: str = _meta(enum=("error", "warning", "note"))
    message: str = _text()
    path: str | None = _text()
    line: int | None = _meta(minimum=1)
    fix: str = _text()


@dataclass(frozen=True, slots=True, kw_only=True)
class LaneSummary:
    """A lane's verdict and the numbers a reviewer looks at first."""

    lane: str = _meta(enum=("property", "fixture", "flake", "lint", "gate"))
    verdict: str = _meta(enum=("pass", "fail"))
    fails: int = 0
    warns: int = 0
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class LedgerDigest:
    """The sha256 of a ledger file the scorer read, so the report pins its evidence."""

    name: str = _text(200)
    digest: str = _digest()


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreReport:
    """score-report.json: the only thing the merge gate reads. Exit 0 only on verdict pass."""

    schema_version: int = _version()
    utc: datetime = _meta()
    verdict: str = _meta(enum=("pass", "fail"))
    lane_name: str = _text(200)
    lanegate_version: str = _text(100)
    authorship: AuthorKind = AuthorKind.AGENT
    run_attempt: int = _meta(minimum=1)
    base_commit: str | None = _commit()
    head_commit: str | None = _commit()
    fails: tuple[ReportReason, ...] = ()
    warns: tuple[ReportReason, ...] = ()
    lanes: tuple[LaneSummary, ...] = ()
    ledgers: tuple[LedgerDigest, ...] = ()


# --- candidates.json (`lanegate candidates`) ---------------------------------------------------------

CANDIDATES_KIND = "lanegate-candidates"
PROMOTION_KIND = "lanegate-promotion"
# the documented order of the survivors (docs/candidates.md#ranking)
SELECTIONS = ("separate-run", "shared-coverage-map", "from-runs")
RANKING = "surviving-mutant-fraction,flake-rate-detected,changed-lines,order-given"


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidateEvidence:
    """What a candidate's run showed, from its score report, and what the run cost."""

    mutants_killed: int = 0
    mutants_planted: int = 0
    # the flake lane's power: the smallest flake rate every replayed test would have shown (%)
    flake_power_pct: int | None = _meta(minimum=0, maximum=100)
    property_cases: int = 0
    cpu_seconds: float | None = _meta()
    wall_seconds: float | None = _meta()


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidateEntry:
    """One candidate of the batch: its verdict, the rules it failed, its evidence and its group."""

    ref: str = _text(1000)
    head_commit: str = _commit()
    verdict: str = _meta(enum=("pass", "fail"))
    failed_rules: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    # the candidate's folder of ledgers and its score report, relative to candidates.json
    ledgers: str = _text(1000)
    score_report_digest: str | None = _digest()
    group: str = _digest()
    changed_lines: int = 0
    # 1 for the strongest survivor (see RANKING); null for a candidate that failed
    rank: int | None = _meta(minimum=1)
    evidence: CandidateEvidence = field(default_factory=CandidateEvidence)


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidateGroup:
    """Candidates that make the same change (see `candidates.grouping`)."""

    key: str = _digest()
    heads: tuple[str, ...] = ()
    # the heads whose code differs from the group's first but that answered alike wherever the
    # behaviour diff compared them (`candidates.behaviour_groups`); the others share its source
    by_behaviour: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CandidatesReport:
    """candidates.json: every candidate judged against one base, survivors ranked, groups named."""

    schema_version: int = _version()
    kind: str = _meta(const=CANDIDATES_KIND)
    lanegate_version: str = _text(100)
    utc: datetime = _meta()
    base_ref: str = _text(1000)
    base_commit: str = _commit()
    coverage_map_digest: str | None = _digest()
    # how each candidate's base tests were selected: "separate-run" (exactly as `lanegate run`
    # with the same inputs: every verdict equals a separate run's) or "shared-coverage-map"
    # (--shared-map: faster, not equal to a separate run) or "from-runs" (--from-runs: as those
    # runs selected them; the lane-b-candidates workflow's runs use a shared coverage map)
    selection: str = _meta(enum=SELECTIONS)
    ranking: str = _meta(const=RANKING)
    jobs: int = _meta(minimum=1)
    wall_seconds: float = 0.0
    candidates: tuple[CandidateEntry, ...] = ()
    survivors: tuple[str, ...] = ()
    groups: tuple[CandidateGroup, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class PromotionRecord:
    """promotion.json: a survivor chosen for Lane A, pinned to the score report it passed with."""

    schema_version: int = _version()
    kind: str = _meta(const=PROMOTION_KIND)
    lanegate_version: str = _text(100)
    utc: datetime = _meta()
    head_commit: str = _commit()
    base_commit: str = _commit()
    # the score report, relative to promotion.json, and the sha256 of its bytes
    score_report: str = _text(1000)
    score_report_digest: str = _digest()
    # who wrote the head, as its score report says (the Lane A gate reads it from here too)
    authorship: AuthorKind = AuthorKind.AGENT
    # the batch's report (candidates.json, beside promotion.json) and the sha256 of its bytes
    candidates_digest: str = _digest()
    # every ledger the score report pins (files beside it), each with the sha256 of its bytes
    ledgers: tuple[LedgerDigest, ...] = ()
