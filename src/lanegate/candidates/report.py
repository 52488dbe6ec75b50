"""The combined report of a batch: each candidate's entry, the survivors ranked, the groups named.

Survivors are the candidates whose score report says pass and whose run reported no error, ranked
by one documented, deterministic order (`RANKING`, docs/candidates.md#ranking): evidence per changed
behaviour, not raw counts (adding trivial code plants and kills more mutants, it proves nothing
more): the smaller fraction of planted mutants left alive first (none planted: none alive), then the
smaller flake rate the flake lane would detect, then the smaller change (lines added plus deleted,
the size penalty), then the order the candidates were given (which an agent cannot choose cheaply,
unlike its head commit).
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
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
    selection: str
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


NO_FLAKE_POWER = 101  # no flake evidence ranks after every measured rate (0..100)


def surviving_fraction(found: CandidateEvidence) -> Fraction:
    """The fraction of planted mutants no test killed (exact; none planted: none survived)."""
    if found.mutants_planted <= 0:
        return Fraction(0)
    alive = max(0, found.mutants_planted - found.mutants_killed)
    return Fraction(alive, found.mutants_planted)


def strength_order(entry: CandidateEntry, given: int) -> tuple[Fraction, int, int, int]:
    """The sort key of a survivor (smaller first; `given`: its place in the order given): see the
    module docstring. The flake power is the smallest rate detected, so smaller is stronger."""
    found = entry.evidence
    power = NO_FLAKE_POWER if found.flake_power_pct is None else found.flake_power_pct
    return (surviving_fraction(found), power, entry.changed_lines, given)


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


def combine(
    entries: Sequence[CandidateEntry],
    facts: BatchFacts,
    same_behaviour: Sequence[tuple[str, str]] = (),
) -> CandidatesReport:
    """Rank the survivors and group the candidates; entries keep the order they were given in.
    `same_behaviour` lists (first, second) head commits that answered alike: the second joins
    the first's group."""
    group_of = {e.head_commit: e.group for e in entries}
    moved = {second: group_of[first] for first, second in same_behaviour if first in group_of}
    entries = [replace(e, group=moved.get(e.head_commit, e.group)) for e in entries]
    order = sorted(
        (strength_order(e, given), given)
        for given, e in enumerate(entries)
        if e.verdict == "pass" and not e.errors
    )
    ranks = {given: rank for rank, (_, given) in enumerate(order, start=1)}
    survivors = [entries[given] for _, given in order]
    ranked = tuple(replace(e, rank=ranks.get(given)) for given, e in enumerate(entries))
    groups: dict[str, list[str]] = {}
    for entry in ranked:
        heads = groups.setdefault(entry.group, [])
        if entry.head_commit not in heads:  # a commit given twice is one head of its group
            heads.append(entry.head_commit)
    return CandidatesReport(
        schema_version=SCHEMA_VERSION,
        kind=CANDIDATES_KIND,
        ranking=RANKING,
        lanegate_version=__version__,
        utc=facts.now,
        base_ref=facts.base_ref,
        base_commit=facts.base_commit,
        coverage_map_digest=facts.coverage_map_digest,
        selection=facts.selection,
        jobs=facts.jobs,
        wall_seconds=round(facts.wall_seconds, 3),
        candidates=ranked,
        survivors=tuple(e.head_commit for e in survivors),
        groups=tuple(
            CandidateGroup(
                key=key,
                heads=tuple(heads),
                by_behaviour=tuple(h for h in heads if h in moved),
            )
            for key, heads in sorted(groups.items())
        ),
    )


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def md_text(value: object) -> str:
    """`value` as literal Markdown text: every ASCII punctuation character backslash-escaped (no
    table cell break, code span, link, HTML comment or emphasis can be opened by it), and every
    control, format (bidi overrides, zero-width) or line/paragraph separator character shown
    visibly as `[U+XXXX]`. The one function the report renders untrusted strings with."""
    out = []
    for char in str(value):
        if unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            out.append(f"\\[U+{ord(char):04X}\\]")
        elif char.isascii() and not char.isalnum() and char.isprintable() and char != " ":
            out.append("\\" + char)
        else:
            out.append(char)
    return "".join(out)


def render_markdown(report: CandidatesReport) -> str:
    """The batch for a reviewer: survivors in rank order, then every candidate, then the groups.
    Every string a candidate or its runner could choose (refs, rule ids, errors, the base ref) is
    rendered through `md_text`."""
    group_names = {g.key: f"G{i}" for i, g in enumerate(report.groups, start=1)}
    selection = {
        "separate-run": "every candidate's base tests selected as a separate `lanegate run` "
        "selects them",
        "shared-coverage-map": "**not equal to a separate `lanegate run`**: base tests selected "
        "by a shared coverage map (--shared-map)",
    }.get(
        report.selection,
        "runs made elsewhere (--from-runs): equal to separate runs only if those ran the full "
        "baseline",
    )
    lines = [
        f"# lanegate candidates: {len(report.candidates)} against {report.base_commit[:12]} "
        f"({md_text(report.base_ref)})",
        "",
        f"{len(report.survivors)} survivor(s); ranked by {report.ranking} "
        "(docs/candidates.md#ranking); " + selection + ".",
        "",
        "| rank | candidate | head | verdict | failed rules | mutants killed/planted "
        "| flake power | cases | lines | CPU s | group |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    ordered = sorted(
        (e for e in report.candidates if e.rank is not None), key=lambda e: e.rank or 0
    ) + [e for e in report.candidates if e.rank is None]
    for entry in ordered:
        found = entry.evidence
        power = "-" if found.flake_power_pct is None else f"{found.flake_power_pct}%"
        rules = ", ".join(md_text(r) for r in entry.failed_rules) or (
            "error" if entry.errors else "-"
        )
        lines.append(
            f"| {entry.rank or '-'} | {md_text(entry.ref)} | {md_text(entry.head_commit[:12])} "
            f"| {md_text(entry.verdict)} | {rules} | {found.mutants_killed}/{found.mutants_planted} "
            f"| {power} | {found.property_cases} | {entry.changed_lines} "
            f"| {_seconds(found.cpu_seconds)} | {group_names[entry.group]} |"
        )
    shared = [g for g in report.groups if len(g.heads) > 1]
    lines += ["", "## Same change"]
    if not shared:
        lines.append("No two candidates make the same change.")
    for group in shared:
        refs = ", ".join(
            md_text(e.ref)
            + (" (other code, same answers)" if e.head_commit in group.by_behaviour else "")
            for e in report.candidates
            if e.head_commit in group.heads
        )
        lines.append(f"- {group_names[group.key]}: {refs}")
    errors = [e for e in report.candidates if e.errors]
    if errors:
        lines += ["", "## Errors"]
        lines += [f"- {md_text(e.ref)}: {md_text('; '.join(e.errors))}" for e in errors]
    return "\n".join(lines) + "\n"
