"""The combined report of a batch: each candidate's entry, the survivors ranked, the groups named.

Survivors are the candidates whose score report says pass and whose run reported no error, ranked
by one documented, deterministic order (`RANKING`, docs/candidates.md#ranking): more mutants killed
first, then more flake power (the smallest flake rate every replayed test would have shown), then
more property cases run, then the smaller change (lines added plus deleted), then the head commit.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from lanegate import git
from lanegate._version import __version__
from lanegate.candidates.grouping import changed_sources, group_key
from lanegate.candidates.pool import CandidateOutcome
from lanegate.diff import classify_diff
from lanegate.errors import LanegateError
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import (
    CANDIDATES_KIND,
    RANKING,
    SCHEMA_VERSION,
    CandidateEntry,
    CandidateEvidence,
    CandidateGroup,
    CandidatesReport,
    ScoreReport,
)
from lanegate.policy import Policy
from lanegate.run.orchestrate import REPORT_FILE

REPORT_JSON = "candidates.json"
REPORT_MD = "candidates.md"


@dataclass(frozen=True, slots=True)
class BatchFacts:
    """What the combined report says about the batch as a whole."""

    base_ref: str
    base_commit: str
    coverage_map_digest: str | None
    jobs: int
    wall_seconds: float
    now: datetime


def changed_lines(repo: Path, merge_base: str, head: str) -> int:
    """Lines added plus deleted from the merge base to head (a binary file counts one)."""
    out = git.run_git(
        repo, "diff", "--no-ext-diff", "--no-textconv", "--numstat", "-z", merge_base, head
    )
    total = 0
    for record in out.split(b"\0"):
        fields = record.split(b"\t")
        if len(fields) < 3:
            continue
        added, deleted = fields[0], fields[1]
        total += 1 if added == b"-" else int(added) + int(deleted)
    return total


def _count(report: ScoreReport, lane: str, name: str) -> int | None:
    for summary in report.lanes:
        if summary.lane == lane and name in summary.counts:
            return summary.counts[name]
    return None


@dataclass(frozen=True, slots=True)
class Judged:
    """A candidate's run as the combined report reads it: which head, where its ledgers are, and
    what its run said (`ran`: False when it ended without a score report)."""

    ref: str
    commit: str
    ledgers: Path
    ran: bool = True
    errors: tuple[str, ...] = ()
    cpu_seconds: float | None = None
    wall_seconds: float | None = None

    @classmethod
    def from_outcome(cls, outcome: CandidateOutcome) -> Judged:
        """What a candidate's forked run reported."""
        job = outcome.job
        return cls(
            job.ref,
            job.commit,
            job.out_dir,
            outcome.verdict is not None,
            outcome.errors,
            outcome.cpu_seconds or None,
            outcome.wall_seconds,
        )


def evidence(report: ScoreReport | None, judged: Judged) -> CandidateEvidence:
    """The evidence fields of an entry, from its score report's lane counts and its run's cost."""
    cpu = None if judged.cpu_seconds is None else round(judged.cpu_seconds, 3)
    wall = None if judged.wall_seconds is None else round(judged.wall_seconds, 3)
    if report is None:
        return CandidateEvidence(flake_power_pct=None, cpu_seconds=cpu, wall_seconds=wall)
    return CandidateEvidence(
        mutants_killed=_count(report, "property", "killed_mutants") or 0,
        mutants_planted=_count(report, "property", "mutants_planted") or 0,
        flake_power_pct=_count(report, "flake", "detectable_pct"),
        property_cases=_count(report, "property", "cases_run") or 0,
        cpu_seconds=cpu,
        wall_seconds=wall,
    )


def strength_order(entry: CandidateEntry) -> tuple[int, int, int, int, str]:
    """The sort key of a survivor (smaller first): see the module docstring."""
    found = entry.evidence
    return (
        -found.mutants_killed,
        -(found.flake_power_pct or 0),
        -found.property_cases,
        entry.changed_lines,
        entry.head_commit,
    )


def _read_report(judged: Judged, base: str) -> tuple[ScoreReport | None, str | None, list[str]]:
    """The candidate's score report, checked by its schema and against the head and base it must be
    about (a report of another head or base is an error, never that candidate's evidence)."""
    path = judged.ledgers / REPORT_FILE
    try:
        loaded = load_file(ScoreReport, "score-report", path)
    except LanegateError as exc:
        return None, None, [exc.diagnostic()]
    report = loaded.value
    for field, want, got in (
        ("head_commit", judged.commit, report.head_commit),
        ("base_commit", base, report.base_commit),
    ):
        if got != want:
            return None, None, [f"{path}: {field}: {str(got)[:12]} is not {want[:12]}"]
    return report, loaded.digest, []


def entry_for(
    judged: Judged, *, repo: Path, base: str, policy: Policy, relative_to: Path
) -> CandidateEntry:
    """One candidate's entry (unranked); `repo` holds the candidate's commits (git reads only)."""
    errors = list(judged.errors)
    report, digest = None, None
    if judged.ran:
        report, digest, problems = _read_report(judged, base)
        errors += problems
    summary = classify_diff(repo, base, policy, judged.commit)
    return CandidateEntry(
        ref=judged.ref,
        head_commit=judged.commit,
        verdict=report.verdict if report is not None else "fail",
        failed_rules=tuple(sorted({r.rule_id for r in report.fails})) if report else (),
        errors=tuple(errors),
        ledgers=os.path.relpath(judged.ledgers, relative_to),
        score_report_digest=digest,
        group=group_key(changed_sources(repo, summary)),
        changed_lines=changed_lines(repo, summary.merge_base, judged.commit),
        rank=None,
        evidence=evidence(report, judged),
    )


def combine(entries: Sequence[CandidateEntry], facts: BatchFacts) -> CandidatesReport:
    """Rank the survivors and group the candidates; entries keep the order they were given in."""
    survivors = sorted(
        (e for e in entries if e.verdict == "pass" and not e.errors), key=strength_order
    )
    ranks = {e.head_commit: i for i, e in enumerate(survivors, start=1)}
    ranked = tuple(replace(e, rank=ranks.get(e.head_commit)) for e in entries)
    groups: dict[str, list[str]] = {}
    for entry in ranked:
        groups.setdefault(entry.group, []).append(entry.head_commit)
    return CandidatesReport(
        schema_version=SCHEMA_VERSION,
        kind=CANDIDATES_KIND,
        ranking=RANKING,
        lanegate_version=__version__,
        utc=facts.now,
        base_ref=facts.base_ref,
        base_commit=facts.base_commit,
        coverage_map_digest=facts.coverage_map_digest,
        jobs=facts.jobs,
        wall_seconds=round(facts.wall_seconds, 3),
        candidates=ranked,
        survivors=tuple(e.head_commit for e in survivors),
        groups=tuple(
            CandidateGroup(key=key, heads=tuple(heads)) for key, heads in sorted(groups.items())
        ),
    )


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def render_markdown(report: CandidatesReport) -> str:
    """The batch for a reviewer: survivors in rank order, then every candidate, then the groups."""
    by_head = {e.head_commit: e for e in report.candidates}
    group_names = {g.key: f"G{i}" for i, g in enumerate(report.groups, start=1)}
    lines = [
        f"# lanegate candidates: {len(report.candidates)} against {report.base_commit[:12]}",
        "",
        f"{len(report.survivors)} survivor(s); ranked by {report.ranking} "
        "(docs/candidates.md#ranking).",
        "",
        "| rank | candidate | head | verdict | failed rules | mutants killed/planted "
        "| flake power | cases | lines | CPU s | group |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ordered = [by_head[h] for h in report.survivors] + [
        e for e in report.candidates if e.rank is None
    ]
    for entry in ordered:
        found = entry.evidence
        power = "-" if found.flake_power_pct is None else f"{found.flake_power_pct}%"
        rules = ", ".join(entry.failed_rules) or ("error" if entry.errors else "-")
        lines.append(
            f"| {entry.rank or '-'} | `{entry.ref}` | `{entry.head_commit[:12]}` | {entry.verdict} "
            f"| {rules} | {found.mutants_killed}/{found.mutants_planted} | {power} "
            f"| {found.property_cases} | {entry.changed_lines} | {_seconds(found.cpu_seconds)} "
            f"| {group_names[entry.group]} |"
        )
    shared = [g for g in report.groups if len(g.heads) > 1]
    lines += ["", "## Same change"]
    if not shared:
        lines.append("No two candidates make the same change.")
    for group in shared:
        refs = ", ".join(f"`{by_head[h].ref}`" for h in group.heads)
        lines.append(f"- {group_names[group.key]}: {refs}")
    errors = [e for e in report.candidates if e.errors]
    if errors:
        lines += ["", "## Errors"]
        lines += [f"- `{e.ref}`: {'; '.join(e.errors)}" for e in errors]
    return "\n".join(lines) + "\n"
