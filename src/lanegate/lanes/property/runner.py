"""The property lane: oracle check, counted Hypothesis cases, planted mutants -> property.json."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from lanegate import git, treewalk
from lanegate.diff import Change, DiffSummary, changed_lines, classify_diff
from lanegate.errors import RunnerError
from lanegate.lanes import pytest_plugins
from lanegate.lanes.collect_failure import import_hint
from lanegate.lanes.collection import Collection, changed_test_files
from lanegate.lanes.context import (
    LaneContext,
    LaneOutcome,
    ProgressEvent,
    envelope,
    lane_sandbox,
    usable_cpus,
)
from lanegate.lanes.property import map_select, oracle_ast, stryker
from lanegate.lanes.property.base_changes import base_test_changes
from lanegate.lanes.property.base_recheck import recheck_at_base
from lanegate.lanes.property.base_suite import (
    BaseOverlays,
    BaseSuite,
    BaseSuiteRun,
    StagedBaseSuite,
    base_suite,
    run_base_suite,
    stage_base_overlays,
    stage_base_suite,
)
from lanegate.lanes.property.baseline import Baseline, pytest_flags, run_baseline
from lanegate.lanes.property.canary import plan_canaries
from lanegate.lanes.property.changes import compare as compare_behaviour
from lanegate.lanes.property.changes import evidence as change_evidence
from lanegate.lanes.property.changes import summary as changes_summary
from lanegate.lanes.property.coverage_map import CoverageMap, ordered
from lanegate.lanes.property.map_key import map_key
from lanegate.lanes.property.map_select import BaselineChoice
from lanegate.lanes.property.mutate_run import (
    MAX_CAUSE_CHARS,
    MutantJob,
    MutantResult,
    WorkerPool,
    run_mutants,
    timeout_for,
)
from lanegate.lanes.property.operators import OPERATORS_VERSION
from lanegate.lanes.property.oracle_source import oracle_overlays, trusted_oracle_module
from lanegate.lanes.property.plant import (
    MutantSpec,
    plan_from_summary,
    planting_candidates,
    policy_draw,
)
from lanegate.lanes.property.restatement import restatements
from lanegate.lanes.property.revert import MODULE, plan_reverts, reverted_lines
from lanegate.lanes.property.standby import Standby, start_standby
from lanegate.lanes.property.suite_split import (
    JoinedBaseline,
    SuiteSplit,
    head_pass,
    join,
    split_suite,
)
from lanegate.lanes.property.trusted import trusted_tests
from lanegate.lanes.property.unmutated import unmutated_lines
from lanegate.ledgers.load import write_document
from lanegate.ledgers.models import (
    PROPERTY_WRITER,
    BaselineRecord,
    Mutant,
    OracleFinding,
    PropertyLedger,
    PropertyRun,
)
from lanegate.model import Severity
from lanegate.policy import Policy
from lanegate.pysource import as_utf8
from lanegate.sandbox import Sandbox
from lanegate.scoring import lane_reasons
from lanegate.scoring.property_rules import (
    counts_as_detected,
    mutant_tally,
    operator_mutants,
    required_mutant_budget,
    voided_killers,
)
from lanegate.sharding.ledger_file import write_shard_ledger
from lanegate.sharding.slices import ShardRun

LANE = "property"
# a mutant child may grow to this many times the baseline run's peak resident memory
MEMORY_FACTOR = 4


def memory_cap_for(baseline_peak: int) -> int:
    """The resident-memory cap of one mutant child, in bytes (0: unknown baseline, no cap)."""
    return MEMORY_FACTOR * baseline_peak if baseline_peak > 0 else 0


LEDGER_NAME = "property.json"
# rows judged on the whole plan's mutants: a shard's slice alone says nothing about them
SLICE_RULES = tuple(
    f"[{rule}]"
    for rule in ("property-mutant-budget", "property-function-budget", "property-zero-budget")
)
REPORT_NAME = "mutation-report.json"


@dataclass(frozen=True, slots=True)
class OracleCheck:
    """The oracle check of a diff: files checked, tests that passed (node-id form), and rejections."""

    new_test_files: tuple[str, ...]
    test_files: tuple[str, ...]
    passed: frozenset[str]
    rejections: tuple[oracle_ast.Rejection, ...]
    # passed test (node-id form) -> its file and the spans of the oracle calls that passed it
    sites: dict[str, tuple[str, tuple[tuple[int, int], ...]]] = field(default_factory=dict)


def check_oracles(
    repo: Path, summary: DiffSummary, policy: Policy, collection: Collection
) -> OracleCheck:
    """Run the AST oracle check on every new or changed test file of the diff, on the tests pytest
    collected from it (`collection`)."""
    custom = trusted_oracle_module(repo, policy, summary)
    files = list(changed_test_files(repo, summary))
    passed: set[str] = set()
    sites: dict[str, tuple[str, tuple[tuple[int, int], ...]]] = {}
    rejections: list[oracle_ast.Rejection] = []
    for changed in files:
        raw = git.show_file(repo, summary.head_commit, changed.path)
        if raw is None:
            continue
        lines = (
            None
            if changed.change is Change.ADDED
            else changed_lines(repo, summary.merge_base, summary.head_commit, changed.path)
        )
        text = raw.decode("utf-8", "replace")
        node_ids = None if collection.failed(changed.path) else collection.in_file(changed.path)
        verdict = oracle_ast.check_source(changed.path, text, custom, lines, node_ids)
        restated = {
            r.test: r
            for r in restatements(
                text,
                lambda path: git.show_file(repo, summary.head_commit, path),
                policy.properties.source_dirs,
            )
            if r.test in verdict.passed
        }
        rejections.extend(
            oracle_ast.Rejection(changed.path, r.line, r.test, r.reason) for r in restated.values()
        )
        if collection.failed(changed.path):
            # its tests cannot run: none of them is evidence, and the reason is pytest's own
            why = collection.error_of(changed.path) or "see pytest's collection error"
            hint = import_hint(why, repo)
            rejections.append(
                oracle_ast.Rejection(
                    changed.path,
                    1,
                    "<file>",
                    f"pytest cannot collect this test file in the sandbox: {why}"
                    + (f"; {hint}" if hint else ""),
                )
            )
            continue
        for name in verdict.passed:
            if name not in restated:
                node = f"{changed.path}::{name.replace('.', '::')}"
                passed.add(node)
                sites[node] = (changed.path, verdict.sites.get(name, ()))
        rejections.extend(verdict.rejections)
    return OracleCheck(
        new_test_files=tuple(f.path for f in files if f.change is Change.ADDED),
        test_files=tuple(f.path for f in files),
        passed=frozenset(passed),
        rejections=tuple(rejections),
        sites=sites,
    )


def _base_node(node_id: str) -> str:
    """`path::Class::test[param]` -> `path::Class::test` (oracle verdicts are per function)."""
    return node_id.split("[", 1)[0]


def oracle_reached(
    repo: Path, check: OracleCheck, node_id: str, calls: dict[str, int] | None
) -> int:
    """How many calls of a trusted oracle the test made at run time from the lines whose oracle
    call passed the static check (a call under a condition never true, or after an early return
    taken at run time, reaches none; so does a replaced `lanegate.oracles.equivalent`)."""
    site = check.sites.get(_base_node(node_id))
    if site is None or not calls:
        return 0
    path, spans = site
    wanted = str((repo / path).resolve())
    total = 0
    for key, count in calls.items():
        where, _, line = key.rpartition(":")
        if where == wanted and line.isdigit() and any(a <= int(line) <= b for a, b in spans):
            total += int(count)
    return total


def _properties(
    baseline: Baseline,
    check: OracleCheck,
    policy: Policy,
    base_tests: frozenset[str] = frozenset(),
    repo: Path | None = None,
) -> list[PropertyRun]:
    """The tests of the diff's test files, and `base_tests` (the merge base's property tests that
    cover a mutant: their cases are evidence too)."""
    out: list[PropertyRun] = []
    files = set(check.test_files)
    for node_id, entry in sorted(baseline.tests.items()):
        if node_id.split("::", 1)[0] not in files and node_id not in base_tests:
            continue
        settings = entry.get("settings")
        failed_outcome = entry.get("outcome") in ("failed", "error")
        # a skipped or xfailed new test ran nothing: no case, so `property-no-cases` names it
        ran = entry.get("outcome") != "skipped"
        generates = True
        if settings is None:  # a plain test: one case, the test itself
            run, failed, max_examples, cut = int(ran), int(failed_outcome), 0, False
        else:
            run = int(entry.get("cases_run", 0))
            failed = max(int(entry.get("cases_failed", 0)), int(failed_outcome))
            max_examples = int(settings.get("max_examples", 0))
            # a property whose phases leave out `generate` runs only its @example inputs: as few
            # generated examples as a property can run
            generates = "generate" in str(settings.get("phases", "generate")).split(",")
            cut = max_examples < policy.properties.max_examples or not generates
        out.append(
            PropertyRun(
                node_id=node_id,
                cases_run=run,
                cases_failed=failed,
                max_examples=max_examples,
                max_examples_cut=cut,
                generates=generates,
                passed_oracle_check=_base_node(node_id) in check.passed,
                oracle_reached=0
                if repo is None
                else oracle_reached(repo, check, node_id, entry.get("oracle_calls")),
                code_reached=_count(entry.get("code_calls")),
            )
        )
    return out


def _count(value: Any) -> int:
    """A non-negative count from the plugin's record (anything else counts as none)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _effective_settings(
    baseline: Baseline, properties: Sequence[PropertyRun], policy: Policy
) -> dict[str, str | int | float | bool | None]:
    out: dict[str, str | int | float | bool | None] = {
        "hypothesis_version": str(baseline.record.get("hypothesis_version", "")),
        "profile": str(baseline.record.get("profile", "")),
        "observability": str(baseline.record.get("observe", "")),
        "seed_passed": policy.properties.seed,
        "max_examples_policy": policy.properties.max_examples,
        "ci_variables": any(k in os.environ for k in ("CI", "GITHUB_ACTIONS")),
        "pytest_exit": baseline.exit_code,
    }
    keys = ("derandomize", "database", "deadline_ms", "phases", "seed", "seed_source")
    records = [
        baseline.tests[p.node_id]["settings"]
        for p in properties
        if baseline.tests.get(p.node_id, {}).get("settings") is not None
    ]
    for key in keys:
        values = {json.dumps(r.get(key), sort_keys=True) for r in records}
        if len(values) == 1:
            out[key] = records[0].get(key)
        elif values:
            out[key] = "mixed: " + ", ".join(sorted(values))
    return out


def build_jobs(
    repo: Path,
    specs: Iterable[MutantSpec],
    sources: dict[str, bytes],
    coverage: CoverageMap,
    baseline_tests: dict[str, dict[str, Any]],
    property_tests: frozenset[str],
    overhead: float,
) -> list[MutantJob]:
    """One job per mutant: the mutated source, the covering tests in kill-credit order, the timeout."""
    jobs = []
    planted = {path: as_utf8(source) for path, source in sources.items()}  # what the plan read
    resolved = {path: str((repo / path).resolve()) for path in sources}
    for spec in specs:
        path = repo / spec.path
        tests = ordered(coverage.tests_at(resolved[spec.path], spec.function_line), property_tests)
        seconds = sum(float(baseline_tests[t].get("duration", 0.0)) for t in tests)
        mutated = spec.mutated_source(planted[spec.path]).decode("utf-8", "surrogateescape")
        # a mutant that changes what a `def` makes (a revert to other defaults) is imported afresh,
        # as a module-level mutant is: the job looks like one
        function, first = (spec.function, spec.function_line) if spec.hot else (MODULE, 0)
        jobs.append(
            MutantJob(
                spec.id,
                path,
                mutated,
                tests,
                timeout_for(seconds, overhead),
                function,
                first,
                seconds,
                original=sources[spec.path].decode("utf-8", "surrogateescape"),
            )
        )
    return jobs


def _ledger_mutants(specs: Sequence[MutantSpec], results: Sequence[MutantResult]) -> list[Mutant]:
    """The ledger entries of planted mutants (or canaries), in plan order."""
    by_id = {r.id: r for r in results}
    out = []
    for spec in specs:
        result = by_id[spec.id]
        out.append(
            Mutant(
                id=spec.id,
                operator=spec.operator,
                path=spec.path,
                line=spec.line,
                column=spec.column,
                original=_bounded(spec.original),
                replacement=_bounded(spec.replacement),
                status=result.status,
                killed_by=result.killed_by,
                kill_kind=result.kill_kind,
                seconds=round(result.seconds, 3),
                function=spec.budget_function,
                detected=result.detected,
                detail=result.detail[:MAX_CAUSE_CHARS] if result.killed_by else "",
            )
        )
    return out


def _bounded(text: str, limit: int = 4096) -> str:
    """An edit's text as the ledger bounds it (a revert's is a whole function)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def lane_warnings(ledger: PropertyLedger, policy: Policy) -> list[str]:
    """What the lane flags without failing: properties whose max_examples the repository cut."""
    return [
        f"{p.node_id}: max_examples {p.max_examples} is below the policy's "
        f"{policy.properties.max_examples} (cut by the repository's settings)"
        for p in ledger.properties
        if p.max_examples_cut
    ]


def lane_problems(ledger: PropertyLedger, ctx: LaneContext) -> list[str]:
    """The error-level reasons the scorer itself (`lanegate.scoring.lane_reasons`) gives this ledger."""
    reasons = lane_reasons(
        ledger,
        policy=ctx.policy,
        now=ctx.now,
        authorship=ctx.authorship.kind,
        pr_body=ctx.pr_body,
        run_attempt=ctx.run_attempt,
    )
    return [f"[{r.rule_id}] {r.message}" for r in reasons if r.severity is Severity.ERROR]


def _working_tree_matches(
    repo: Path, summary: DiffSummary, paths: Iterable[str]
) -> dict[str, bytes]:
    sources: dict[str, bytes] = {}
    for path in paths:
        head = git.show_file(repo, summary.head_commit, path)
        local = repo / path
        if local.is_symlink():
            raise RunnerError(
                f"{path}: a symbolic link (to {os.readlink(local)}) where the lane plants mutants: "
                "only a regular file can be mutated",
                hint="commit the module itself in place of the link",
            )
        if head is None or not local.is_file() or local.read_bytes() != head:
            raise RunnerError(
                f"{path}: the working tree differs from {summary.head_commit[:12]}",
                hint="run the property lane on a clean checkout of the head commit",
            )
        sources[path] = head
    return sources


def choose_baseline(
    repo: Path, summary: DiffSummary, policy: Policy, coverage_map: Path | None
) -> BaselineChoice:
    """Full baseline or coverage-map selection (see `map_select`); the key is computed only when a
    map is given."""
    if coverage_map is None:
        return map_select.full("no coverage map given")
    expected = map_key(repo, summary.merge_base, pytest_flags(policy))
    return map_select.choose(repo, summary, expected, coverage_map)


def _repo_file(repo: Path, path: str) -> bool:
    """A relative path naming a file inside the repository (a map's node ids are checked data, but
    only such paths ever reach pytest's command line)."""
    pure = PurePosixPath(path)
    if pure.is_absolute() or ".." in pure.parts or not (repo / path).is_file():
        return False
    return (repo / path).resolve().is_relative_to(repo.resolve())


def _selected_files(repo: Path, choice: BaselineChoice) -> list[str]:
    """The files of the head's tree that a coverage-map choice runs (selected tests, whole files)."""
    files = {n.split("::", 1)[0] for n in choice.node_ids} | {
        *choice.head_files,
        *choice.base_files,
    }
    return sorted(f for f in files if _repo_file(repo, f))


def baseline_record(
    choice: BaselineChoice, joined: JoinedBaseline, split: SuiteSplit
) -> BaselineRecord:
    """The ledger's account of the choice, and of which process traced which test."""
    return BaselineRecord(
        mode=choice.mode.value,
        reason=choice.reason[:4096],
        map_key=choice.map_key,
        map_tests=choice.map_tests,
        selected_tests=len(joined.baseline.tests),
        changed_functions=choice.functions,
        traced_at_head=joined.at_head,
        traced_in_base_suite=joined.in_base_suite,
        shared_test_files=len(split.shared),
        split_reason=split.reason[:4096],
        dropped_head_entries=joined.dropped[:100],
    )


def _base_suite_timed(
    repo: Path,
    summary: DiffSummary,
    policy: Policy,
    sandbox: Sandbox,
    choice: BaselineChoice,
    stop: threading.Event,
    trace: list[Path],
    split: SuiteSplit,
    suite: BaseSuite,
    staged: StagedBaseSuite | None,
    standby: Standby | None,
) -> tuple[BaseSuiteRun, float]:
    """`run_base_suite`'s answer and its own wall seconds (it overlaps the head's baseline run)."""
    started = time.perf_counter()
    # with nothing shared (see `suite_split`), the base suite's run feeds no baseline: no tracer
    traced = trace if split.shared else []
    answer = run_base_suite(
        repo,
        summary,
        policy,
        sandbox=sandbox,
        choice=choice,
        stop=stop,
        trace=traced,
        suite=suite,
        staged=staged,
        standby=standby,
    )
    return answer, time.perf_counter() - started


def _phase_clock(times: dict[str, float], started: float) -> Callable[[str], None]:
    """`mark(name)` records in `times[name]` the seconds since the previous mark (the first since
    `started`): the fixed cost's phases, consecutive and summing to it."""
    last = [started]

    def mark(name: str) -> None:
        now = time.perf_counter()
        times[name] = now - last[0]
        last[0] = now

    return mark


def run_lane(
    ctx: LaneContext,
    *,
    workers: int | None = None,
    timings: dict[str, float] | None = None,
    shard: ShardRun | None = None,
    coverage_map: Path | None = None,
    draw: int | None = None,
) -> LaneOutcome:
    """Run the property lane and write `property.json` and `mutation-report.json` into ctx.out_dir.

    `timings`, when given, receives seconds per phase (for the benchmark's breakdown). With `shard`,
    only the slice's mutants run (everything else as unsharded) and the ledger goes to
    `property-shard-K-of-N.json`; the budget is judged on the merge of all shards, by the scorer.
    `coverage_map`: a map file or a directory of maps (from a trusted default-branch run).
    `draw`: the mutant draw to plant with (a reproduction); default a fresh secret one, or the
    shard plan's.
    """
    times: dict[str, float] = {} if timings is None else timings
    started = time.perf_counter()
    repo, policy = ctx.repo, ctx.policy
    say = ctx.progress
    summary = classify_diff(repo, ctx.base, policy, ctx.head)
    if git.resolve_commit(repo, "HEAD") != summary.head_commit:
        raise RunnerError(f"--head {ctx.head} is not the checked-out commit; the lane runs HEAD")
    mark = _phase_clock(times, started)
    mark("diff")
    sandbox = lane_sandbox(ctx)
    # the oracle module every run of this lane imports is the merge base's (or lanegate's own)
    oracle_staging = Path(tempfile.mkdtemp(prefix="lanegate-oracle-module-"))
    standbys: list[Standby] = []
    staged: StagedBaseSuite | None = None
    base_files: BaseOverlays | None = None
    # the head's selected run and the base suite's, each waited for by a thread of its own
    background = ThreadPoolExecutor(max_workers=2, thread_name_prefix="lanegate-baseline")
    stop_base = threading.Event()  # set when the lane unwinds: both runs' processes are killed
    pool: WorkerPool | None = None
    try:
        sandbox.trusted_files.update(oracle_overlays(repo, policy, summary, oracle_staging))
        # the two selected runs' processes start first, each in a sandbox of its own (`standby`):
        # the head's tree is the checkout itself, the base suite's the checkout with the base
        # versions of the test files the diff touched mounted over it, both known from the diff
        suite = base_suite(repo, summary)
        base_files = stage_base_overlays(repo, summary, suite)
        head_standby = start_standby(repo, sandbox)
        standbys += [] if head_standby is None else [head_standby]
        base_standby = (
            start_standby(
                repo,
                sandbox,
                overlays=base_files.overlays,
                removed=suite.added,
                frozen=suite.frozen,
            )
            if suite.files
            else None
        )
        standbys += [] if base_standby is None else [base_standby]
        mark("standby")
        choice = choose_baseline(repo, summary, policy, coverage_map)
        split = split_suite(suite)
        present = _selected_files(repo, choice) if choice.selective else []
        plan = head_pass(split, choice, present)
        if plan is None and head_standby is not None:
            head_standby.close()  # nothing is left for the head's process to run
            head_standby = None
        say(ProgressEvent(LANE, f"baseline: {choice.mode.value} ({choice.reason})"))
        staged = stage_base_suite(repo, summary, suite, choice, overlays=base_files)
        if staged is None and base_standby is not None:
            base_standby.close()  # no base test is to run
            base_standby = None
        # the runs record the calls into every file a mutant or a canary can be planted in: known
        # before the planting, so both runs start now and the planting overlaps them
        candidates = _working_tree_matches(
            repo, summary, planting_candidates(repo, summary, policy)
        )
        trace = [repo / p for p in candidates]
        mark("choice")
        # the base's tests at head need nothing the head's run learns: they run in their own
        # sandboxed process alongside it, traced; for the base files the diff left alone their
        # record is the baseline's (`suite_split`), so the head's process runs only the diff's
        # and other test files
        say(ProgressEvent(LANE, "base tests at head", "runs", 0, 1))
        base_run = background.submit(
            _base_suite_timed,
            repo,
            summary,
            policy,
            sandbox,
            choice,
            stop_base,
            trace,
            split,
            suite,
            staged,
            base_standby,
        )
        staged = None  # the base suite's run removes its staged files
        say(ProgressEvent(LANE, "baseline run", "runs", 0, 1))
        head_run = (
            None
            if plan is None
            else background.submit(
                run_baseline,
                repo,
                policy,
                trace,
                selection=plan.selection,
                keep=plan.keep,
                ignore=plan.ignored,
                sandbox=sandbox,
                record_oracles=True,
                stop=stop_base,
                standby=head_standby,
            )
        )
        mark("runs_started")
        # which candidates are planted follows a secret of this run (a shard: its plan's), so
        # that a diff cannot know in advance which of its line's candidates it must survive
        pinned = draw is not None or policy.properties.mutant_draw is not None
        if shard is not None:
            draw = shard.mutant_draw
        elif draw is None:
            draw = policy_draw(policy)
        reverts = plan_reverts(repo, summary, policy)
        specs = plan_from_summary(repo, summary, policy, draw=draw, reverts=reverts.specs)
        if shard is not None:
            planned = {s.id for s in specs}
            stray = sorted(set(shard.items) - planned)
            if stray:
                raise RunnerError(
                    f"shard {shard.spec}: mutant {stray[0]} is not planted by this diff"
                )
            specs = [s for s in specs if s.id in set(shard.items)]
        # the canaries follow a secret of this run, never shown to the sandbox, written to the
        # ledger only once every test process has exited
        mark("mutant_plan")
        canary_seed = secrets.randbits(62)
        canaries = plan_canaries(repo, summary, policy, canary_seed, len(specs))
        mark("canary_plan")
        sources = {p: candidates[p] for p in sorted({s.path for s in (*specs, *canaries)})}
        # the mutant workers start now so that their imports overlap the baseline runs
        if specs:
            pool = WorkerPool(repo, min(workers or usable_cpus(), len(specs)), sandbox=sandbox)
        mark("workers")
        times["plan"] = time.perf_counter() - started
        head = None if head_run is None else head_run.result()
        times["baseline"] = 0.0 if head is None else head.seconds
        mark("baseline_step")
        say(ProgressEvent(LANE, "oracle check", "files", 0, 0))
        # the diff's test files run in the head's process only
        head_collection = Collection((), ()) if head is None else head.collection
        check = check_oracles(repo, summary, policy, head_collection)
        mark("oracle_check")
        waited = time.perf_counter()
        base, times["base_suite"] = base_run.result()
        times["base_suite_wait"] = time.perf_counter() - waited
        mark("base_suite_step")
        joined = join(head, base.traced if split.shared else None, split)
        baseline = joined.baseline
        recheck_started = time.perf_counter()
        rechecks = recheck_at_base(
            repo, summary, policy, base.runs, sandbox=sandbox, frozen=base.suite.frozen
        )
        if rechecks:
            times["base_recheck"] = time.perf_counter() - recheck_started
        coverage = CoverageMap.from_record(baseline.tests)
        trusted = trusted_tests(
            repo,
            summary,
            trusted_oracle_module(repo, policy, summary),
            baseline.tests,
            baseline.collection,
            check.passed,
        )
        property_tests = trusted.all
        memory_cap = memory_cap_for(baseline.peak_rss)
        jobs = build_jobs(
            repo,
            [*specs, *canaries],
            sources,
            coverage,
            baseline.tests,
            property_tests,
            baseline.overhead,
        )
        covering = frozenset(t for job in jobs for t in job.tests)
        properties = _properties(baseline, check, policy, trusted.base & covering, repo)
        done: list[MutantResult] = []

        def tick(result: MutantResult) -> None:
            done.append(result)
            say(
                ProgressEvent(
                    LANE, f"mutant {result.id}: {result.status}", "mutants", len(done), len(jobs)
                )
            )

        mark("jobs")
        times["fixed"] = time.perf_counter() - started  # everything before the mutant phase
        results, control_problem = run_mutants(
            repo,
            jobs,
            pytest_flags(policy),
            property_tests,
            workers=workers,
            control_timeout=float(policy.lane.max_wall_seconds),
            on_done=tick,
            pool=pool,
            timings=times,
            memory_cap=memory_cap,
            order_seed=secrets.randbits(62),
        )
        mark("mutants")
        # the behaviour diff: base and head run side by side on the same inputs, once per lane run
        # the run's one secret (the mutant draw) also seeds the behaviour diff's inputs: a head
        # cannot know them in advance, and a pinned draw (--mutant-draw) reproduces them too
        behaviour_seed = draw
        reached = sorted(
            {
                t
                for f in reverts.functions
                for t in coverage.tests_at(str((repo / f.path).resolve()), f.first_line)
            }
        )
        behaviour = compare_behaviour(
            repo, summary, reverts, reached, sandbox=sandbox, policy=policy, seed=behaviour_seed
        )
        mark("behaviour")
    finally:
        stop_base.set()  # a no-op once it answered; on an error or Ctrl-C it is not waited out
        background.shutdown(wait=True)  # never leave the base tests' process behind
        if pool is not None:
            pool.close()
        for standby in standbys:  # a used one has exited; an unused one is killed here
            standby.close()
        if staged is not None:
            staged.close()
        if base_files is not None:
            base_files.close()
        sandbox.close()
        treewalk.rmtree(oracle_staging, ignore_errors=True)
    mutants = _ledger_mutants(specs, results)
    canary_entries = _ledger_mutants(canaries, results)
    times["canaries"] = sum(c.seconds for c in canary_entries)
    times["canaries_count"] = len(canary_entries)
    void = voided_killers(canary_entries)
    killed = sum(1 for m in mutants if counts_as_detected(m, void))
    operators = operator_mutants(mutants)
    changes = change_evidence(reverts, mutants, canary_entries, behaviour)
    pinned_changes = {(c.path, c.qualname) for c in changes if c.revert_verdict == "pinned"}
    ratio = policy.properties.mutant_kill_ratio
    suite_digest = hashlib.sha256("\n".join(sorted(check.test_files)).encode()).hexdigest()[:12]
    ledger = PropertyLedger(
        **envelope(
            ctx,
            writer=PROPERTY_WRITER,
            suite_id=f"property:{suite_digest}",
            base_commit=summary.base_commit,
            head_commit=summary.head_commit,
            sandbox=sandbox,
        ),
        seed=policy.properties.seed,
        command=baseline.command,
        effective_settings={
            **_effective_settings(baseline, properties, policy),
            "pytest_plugins": "; ".join(pytest_plugins.notes()),
            "baseline_peak_rss_bytes": baseline.peak_rss,
            "mutant_memory_cap_bytes": memory_cap,
            "control_problem": control_problem,
            "base_property_tests": len(trusted.base),
            "base_suite_pytest_exit": None if base.traced is None else base.traced.exit_code,
        },
        new_test_files=check.new_test_files,
        oracle_findings=tuple(
            OracleFinding(path=r.path, line=r.line, test=r.test, reason=r.reason)
            for r in check.rejections
        ),
        cases_run=sum(p.cases_run for p in properties),
        cases_failed=sum(p.cases_failed for p in properties),
        properties=tuple(properties),
        diff_digest=summary.digest,
        operator_version=OPERATORS_VERSION,
        mutants_planted=len(mutants),
        killed_mutants=killed,
        mutant_budget=required_mutant_budget(ratio, len(operators)),
        mutant_kill_ratio=ratio,
        mutants=tuple(mutants),
        base_test_files=len(suite.files),
        base_tests=base.runs,
        base_test_changes=base_test_changes(repo, summary, suite.restored, suite.helpers),
        base_rechecks=tuple(rechecks),
        unmutated=unmutated_lines(
            repo, summary, policy, reverted=reverted_lines(reverts, pinned_changes, candidates)
        ),
        canary_seed=canary_seed,
        mutant_draw=draw,
        mutant_draw_pinned=pinned,
        canaries=tuple(canary_entries),
        baseline=baseline_record(choice, joined, split),
        changed_functions=changes,
        behaviour_seed=behaviour_seed,
        behaviour_cpu_seconds=policy.properties.behaviour_cpu_seconds,
    )
    ctx.out_dir.mkdir(parents=True, exist_ok=True)
    if shard is None:
        ledger_path = ctx.out_dir / LEDGER_NAME
        write_document(ledger_path, ledger, "property")
    else:
        ledger_path = write_shard_ledger(ctx.out_dir, LANE, shard.spec, shard.plan_digest, ledger)
    times["total"] = time.perf_counter() - started
    texts = {p: b.decode("utf-8", "replace") for p, b in sources.items()}
    report = stryker.report(mutants, texts, str(repo))
    (ctx.out_dir / REPORT_NAME).write_text(json.dumps(report, indent=1, sort_keys=True), "utf-8")
    problems = lane_problems(ledger, ctx)
    if shard is not None:
        # a slice's budget is not the lane's: the score job judges the merged ledger's
        problems = [p for p in problems if not p.startswith(SLICE_RULES)]
    if control_problem:
        problems.append(f"mutants not judged: {control_problem}")
    undetected = [
        f"not detected: {m.id} ({m.status}) {m.path}:{m.line}: {m.original!r} -> {m.replacement!r}"
        for m in operators
        if not counts_as_detected(m, void)
    ]
    if ledger.killed_mutants < ledger.mutant_budget and shard is None:
        problems += undetected
        undetected = []
    base_killers = sorted({str(m.killed_by) for m in mutants if m.killed_by in trusted.base})
    summary_text = (
        f"baseline {choice.mode.value}: {choice.reason}; "
        f"{ledger.cases_run} cases ({ledger.cases_failed} failed) in {len(properties)} tests; "
        f"mutants: {len(operators)} planted, {killed} detected by properties (budget "
        f"{ledger.mutant_budget}): {mutant_tally(ledger.mutants)}"
        + (f"; {len(mutants) - len(operators)} revert(s)" if len(mutants) > len(operators) else "")
        + (f"; base property tests credited: {', '.join(base_killers)}" if base_killers else "")
        + f"; {len(check.rejections)} oracle rejection(s)"
    )
    pre_existing = [r.node_id for r in rechecks if r.verdict == "pre-existing"]
    if pre_existing:
        summary_text += (
            f"; {len(pre_existing)} base test(s) fail at the base too (pre-existing, not counted "
            "against the diff): " + ", ".join(pre_existing)
        )
    if undetected:  # within the budget, but on screen all the same
        summary_text += "; " + "; ".join(undetected)
    if changes:
        summary_text += "; " + changes_summary(changes)
    notes = pytest_plugins.notes()
    if notes:
        summary_text += "; pytest plugins: " + "; ".join(notes)
    if shard is not None:
        summary_text = f"shard {shard.spec}: " + summary_text + " (budget judged on the merge)"
    warnings = lane_warnings(ledger, policy)
    if warnings:
        summary_text += (
            f"; {len(warnings)} {'property' if len(warnings) == 1 else 'properties'} with max_examples cut: "
            + "; ".join(warnings)
        )
    return LaneOutcome(LANE, ledger_path, not problems, summary_text, tuple(problems))
