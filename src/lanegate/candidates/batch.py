"""One batch: resolve the candidates, do the base's work once, run every candidate, combine.

Order matters for trust: the base's work (`shared`) is finished before any candidate's code runs,
and every candidate's tree exists before the first one starts, so each sandbox can hide all the
others (`workspace.hidden_for`).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from lanegate import git, treewalk
from lanegate.authorship import Authorship
from lanegate.candidates import shared, workspace
from lanegate.candidates.behaviour_groups import Survivor, same_behaviour
from lanegate.candidates.grouping import group_key
from lanegate.candidates.pool import CandidateJob, CandidateOutcome, run_candidates
from lanegate.candidates.report import (
    REPORT_JSON,
    REPORT_MD,
    BatchFacts,
    Judged,
    combine,
    entry_for,
    render_markdown,
)
from lanegate.errors import GitError, LanegateError, UsageError
from lanegate.ledgers.load import write_document
from lanegate.ledgers.models import CandidateEntry, CandidateEvidence, CandidatesReport
from lanegate.policy import Policy, load_policy
from lanegate.run import children
from lanegate.run.orchestrate import RunRequest

MAX_CANDIDATES = 256
MARKER = ".lanegate-candidates.json"


@dataclass(frozen=True, slots=True)
class BatchRequest:
    """What a batch judges: `heads` of `repo` against `base`, outputs into `out_dir`."""

    repo: Path
    base: str
    heads: tuple[str, ...]
    out_dir: Path
    jobs: int
    now: datetime
    authorship: Authorship
    run_attempt: int = 1
    job: str = "local"
    # opt-in: the base's coverage map selects the base tests each candidate runs (faster, but not
    # what a separate `lanegate run` judges); off, every candidate runs the full baseline
    shared_map: bool = False


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The combined report, where it went, and each candidate's run outcome."""

    report: CandidatesReport
    report_path: Path
    markdown_path: Path
    outcomes: tuple[CandidateOutcome, ...]
    base_seconds: float


@dataclass(frozen=True, slots=True)
class Resolved:
    """The batch's heads: the merge base it judges against, each head's commit (in the order
    given), and why a head cannot be judged (by its index; judged: absent)."""

    merge_base: str
    commits: tuple[str, ...]
    rejected: dict[int, str]


def resolve_heads(repo: Path, base: str, heads: tuple[str, ...]) -> Resolved:
    """Resolve every head; a head that cannot be judged in this batch is rejected with a reason,
    never the batch: a commit given again (the first is judged), a head with no commit beyond the
    base or no history shared with it, a head forked from another point than the batch's merge
    base. The batch's merge base is the one most heads share (ties: the base commit itself, else
    the earliest given), so no single head chooses it. A head or base that does not resolve is a
    usage error (a typo, not a candidate)."""
    if not heads:
        raise UsageError("no candidate heads given", hint="lanegate candidates --base REF HEAD...")
    if len(heads) > MAX_CANDIDATES:
        raise UsageError(f"{len(heads)} candidates: at most {MAX_CANDIDATES} in one batch")
    base_commit = git.resolve_commit(repo, base)
    commits = [git.resolve_commit(repo, ref) for ref in heads]
    rejected: dict[int, str] = {}
    points: list[str | None] = []
    for index, (ref, commit) in enumerate(zip(heads, commits, strict=True)):
        try:
            points.append(git.merge_base(repo, base_commit, commit))
        except GitError as exc:
            points.append(None)
            rejected[index] = f"candidate {ref}: no merge base with {base}: {exc.diagnostic()}"
    first: dict[str, int] = {}
    for index, (ref, commit, point) in enumerate(zip(heads, commits, points, strict=True)):
        if index in rejected:
            pass
        elif commit in first:
            rejected[index] = (
                f"candidate {ref}: {commit[:12]} is the same commit as candidate "
                f"{heads[first[commit]]}, judged once there"
            )
        elif point == commit:
            rejected[index] = f"candidate {ref}: no commit beyond the base {base}: nothing to judge"
        first.setdefault(commit, index)
    open_points = [p for i, p in enumerate(points) if i not in rejected and p is not None]
    merge_base = max(
        open_points or [base_commit],
        key=lambda p: (open_points.count(p), p == base_commit, -points.index(p)),
    )
    for index, (ref, point) in enumerate(zip(heads, points, strict=True)):
        if index not in rejected and point != merge_base:
            rejected[index] = (
                f"candidate {ref}: forked from {str(point)[:12]}, not from the batch's merge base "
                f"{merge_base[:12]} (the one most candidates share): rebase it on "
                f"{merge_base[:12]} or judge it in a batch of its own"
            )
    return Resolved(merge_base, tuple(commits), rejected)


def prepare_out(out_dir: Path) -> None:
    """The batch's output folder: new, empty, or a previous batch's (replaced)."""
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise UsageError(f"{out_dir}: not a folder", hint="choose another --out DIR")
    if out_dir.exists() and any(out_dir.iterdir()):
        if not (out_dir / MARKER).is_file():
            raise UsageError(
                f"{out_dir}: exists, is not empty and was not made by lanegate candidates (no "
                f"{MARKER}): refusing to write into it",
                hint="move it away, or choose another --out DIR",
            )
        treewalk.rmtree(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / ".gitignore").write_text("*\n", encoding="utf-8")
    (out_dir / MARKER).write_text('{"writer": "lanegate candidates"}\n', encoding="utf-8")


def _policy(tree: Path) -> Policy:
    try:
        return load_policy(tree)
    except LanegateError:
        return Policy()  # the candidate's run reported it; its diff is still grouped and sized


def _rejected(
    request: BatchRequest, resolved: Resolved, index: int, out_dir: Path
) -> CandidateEntry:
    """The failing entry of a head the batch could not judge: its reason is its one error (git
    reads of the source repository only: none of its code runs)."""
    commit = resolved.commits[index]
    reason = resolved.rejected[index]
    judged = Judged(
        request.heads[index],
        commit,
        out_dir / f"{index + 1:02d}-{commit[:12]}",
        ran=False,
        errors=(reason,),
    )
    repo = request.repo.resolve()
    try:
        return entry_for(
            judged, repo=repo, base=resolved.merge_base, policy=Policy(), relative_to=out_dir
        )
    except LanegateError:  # no diff to group it by (no history shared with the base)
        return CandidateEntry(
            ref=judged.ref,
            head_commit=commit,
            verdict="fail",
            errors=(reason,),
            ledgers=os.path.relpath(judged.ledgers, out_dir),
            score_report_digest=None,
            group=group_key((), behaviour=f"not judged: {commit}"),
            rank=None,
            evidence=CandidateEvidence(flake_power_pct=None, cpu_seconds=None, wall_seconds=None),
        )


def judge_candidates(
    request: BatchRequest, on_done: Callable[[CandidateOutcome], None] | None = None
) -> BatchResult:
    """Judge every head; write candidates.json and candidates.md into `request.out_dir`."""
    started = time.monotonic()
    # the batch reaps the orphaned processes of its sandboxes (the map's and the candidates'):
    # their CPU is then counted in its own, as a `lanegate run` counts its lanes'
    children.become_subreaper()
    repo = request.repo.resolve()
    resolved = resolve_heads(repo, request.base, request.heads)
    base_commit = resolved.merge_base
    out_dir = request.out_dir.resolve()
    prepare_out(out_dir)
    judged_at = [i for i in range(len(request.heads)) if i not in resolved.rejected]
    refs = [request.heads[i] for i in judged_at]
    commits = [resolved.commits[i] for i in judged_at]
    root = Path(tempfile.mkdtemp(prefix="lanegate-candidates-"))
    try:
        space = workspace.open_workspace(repo, root, base_commit)
        names = [f"{i + 1:02d}-{resolved.commits[i][:12]}" for i in judged_at]
        base = shared.build_shared(
            space, base_commit, hidden=(repo, out_dir), coverage_map=request.shared_map
        )
        trees = [workspace.checkout(space, n, c) for n, c in zip(names, commits, strict=True)]
        results = root / "outcomes"  # these two before `hidden_for` lists the folders to hide
        results.mkdir()
        temps = root / "tmp"
        temps.mkdir()
        jobs = [
            CandidateJob(
                name=name,
                ref=ref,
                commit=commit,
                tree=tree,
                out_dir=out_dir / name,
                hidden=workspace.hidden_for(space, out_dir),
                temp=temps / name,
            )
            for name, ref, commit, tree in zip(names, refs, commits, trees, strict=True)
        ]
        template = RunRequest(
            repo=repo,
            policy=Policy(),
            base=base_commit,
            out_dir=out_dir,
            now=request.now,
            authorship=request.authorship,
            run_attempt=request.run_attempt,
            job=request.job,
            coverage_map=base.coverage_map,
            base_collection=base.collection,
        )
        outcomes = run_candidates(jobs, template, results, at_once=request.jobs, on_done=on_done)
        by_index = {
            i: entry_for(
                Judged.from_outcome(o),
                repo=o.job.tree,
                base=base_commit,
                policy=_policy(o.job.tree),
                relative_to=out_dir,
            )
            for i, o in zip(judged_at, outcomes, strict=True)
        }
        entries = [
            by_index[i] if i in by_index else _rejected(request, resolved, i, out_dir)
            for i in range(len(request.heads))
        ]
        policy = _policy(space.root / workspace.BASE_TREE)  # the base's: no candidate chose it
        agreements = same_behaviour(
            space,
            [
                Survivor(name, entry.head_commit, entry.group)
                for name, entry in zip(names, (by_index[i] for i in judged_at), strict=True)
                if entry.verdict == "pass" and not entry.errors
            ],
            policy=policy,
            hidden=workspace.hidden_for(space, out_dir),
            cpu_seconds=policy.properties.behaviour_cpu_seconds,
        )
    finally:
        shared.release(root)
        treewalk.rmtree(root, ignore_errors=True)
    facts = BatchFacts(
        base_ref=request.base,
        base_commit=base_commit,
        coverage_map_digest=base.map_digest,
        selection="shared-coverage-map" if request.shared_map else "separate-run",
        jobs=request.jobs,
        wall_seconds=time.monotonic() - started,
        now=request.now,
    )
    report = combine(entries, facts, [(a.first, a.second) for a in agreements])
    report_path = out_dir / REPORT_JSON
    write_document(report_path, report, "candidates")
    markdown_path = out_dir / REPORT_MD
    markdown_path.write_text(render_markdown(report), encoding="utf-8")
    return BatchResult(report, report_path, markdown_path, tuple(outcomes), base.seconds)


def combine_runs(
    repo: Path, base: str, heads: tuple[str, ...], runs: Path, out_dir: Path, now: datetime
) -> BatchResult:
    """The combined report of runs made elsewhere (the workflow's matrix jobs): the i-th head's
    ledgers are in `runs/<i>` (from 1). Each score report must be about its head and the shared
    merge base, or that candidate is an error; no candidate's code runs here."""
    started = time.monotonic()
    repo = repo.resolve()
    resolved = resolve_heads(repo, base, heads)
    commits = resolved.commits
    # the lanes' ledgers name the base as given (resolved), as `lanegate score --base` agrees it
    base_commit = git.resolve_commit(repo, base)
    out_dir = out_dir.resolve()
    prepare_out(out_dir)
    policy = _policy(repo)
    entries = []
    for index, (ref, commit) in enumerate(zip(heads, commits, strict=True), start=1):
        folder = runs.resolve() / str(index)
        errors: tuple[str, ...] = ()
        if index - 1 in resolved.rejected:
            errors = (resolved.rejected[index - 1],)
        elif not folder.is_dir():
            errors = (f"{folder}: no ledgers for candidate {ref}",)
        judged = Judged(ref, commit, folder, ran=not errors, errors=errors)
        entries.append(
            entry_for(judged, repo=repo, base=base_commit, policy=policy, relative_to=out_dir)
        )
    facts = BatchFacts(
        base_ref=base,
        base_commit=base_commit,
        coverage_map_digest=None,
        selection="from-runs",  # how those runs selected their base tests is theirs to say
        jobs=1,
        wall_seconds=time.monotonic() - started,
        now=now,
    )
    report = combine(entries, facts)
    report_path = out_dir / REPORT_JSON
    write_document(report_path, report, "candidates")
    markdown_path = out_dir / REPORT_MD
    markdown_path.write_text(render_markdown(report), encoding="utf-8")
    return BatchResult(report, report_path, markdown_path, (), 0.0)
