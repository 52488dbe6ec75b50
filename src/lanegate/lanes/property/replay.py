"""Rebuild one planted mutant from its id and rerun its covering tests with the recorded seed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lanegate.diff import DiffSummary, classify_diff
from lanegate.errors import UsageError
from lanegate.lanes.base_policy import trusted_sandbox
from lanegate.lanes.property.baseline import pytest_flags, run_baseline
from lanegate.lanes.property.coverage_map import CoverageMap
from lanegate.lanes.property.mutate_run import MutantResult, run_mutants
from lanegate.lanes.property.plant import MutantSpec, find_candidate
from lanegate.lanes.property.runner import (
    _base_node,
    _working_tree_matches,
    build_jobs,
    check_oracles,
)
from lanegate.policy import Policy
from lanegate.sandbox import Sandbox, open_sandbox


@dataclass(frozen=True, slots=True)
class Replayed:
    """One replayed mutant: its spec, the source before and after, the tests run and the result."""

    spec: MutantSpec
    source: bytes
    mutated: bytes
    tests: tuple[str, ...]
    result: MutantResult


def replay_mutant(
    repo: Path,
    base: str,
    policy: Policy,
    mutant_id: str,
    head: str = "HEAD",
    *,
    sandboxed: bool = True,
    config: Path | None = None,
) -> Replayed:
    """Find `mutant_id` among the diff's candidates (whichever draw planted it), trace its covering
    tests once, and run it (`config`: the explicit policy file, for `trusted_sandbox`)."""
    summary = classify_diff(repo, base, policy, head)
    spec, count = find_candidate(repo, summary, policy, mutant_id)
    if spec is None:
        raise UsageError(
            f"--replay: {mutant_id} is not a mutant candidate of {base}...{head} "
            f"({count} candidates; the ids are in property.json)"
        )
    sources = _working_tree_matches(repo, summary, [spec.path])
    limits = trusted_sandbox(repo, base, head, policy, config)
    with open_sandbox(repo, limits, enabled=sandboxed) as sandbox:
        return _replay(repo, policy, summary, spec, sources, sandbox)


def _replay(
    repo: Path,
    policy: Policy,
    summary: DiffSummary,
    spec: MutantSpec,
    sources: dict[str, bytes],
    sandbox: Sandbox,
) -> Replayed:
    baseline = run_baseline(repo, policy, [repo / spec.path], sandbox=sandbox)
    check = check_oracles(repo, summary, policy, baseline.collection)
    coverage = CoverageMap.from_record(baseline.tests)
    property_tests = frozenset(n for n in baseline.tests if _base_node(n) in check.passed)
    (job,) = build_jobs(
        repo, [spec], sources, coverage, baseline.tests, property_tests, baseline.overhead
    )
    results, problem = run_mutants(
        repo, [job], pytest_flags(policy), property_tests, workers=1, sandbox=sandbox
    )
    result = results[0]
    if problem:
        result = MutantResult(
            result.id, result.status, result.killed_by, result.kill_kind, result.seconds, problem
        )
    return Replayed(
        spec, sources[spec.path], spec.mutated_source(sources[spec.path]), job.tests, result
    )
