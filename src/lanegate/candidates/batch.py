"""One batch: resolve the candidates, do the base's work once, run every candidate, combine.

Order matters for trust: the base's work (`shared`) is finished before any candidate's code runs,
and every candidate's tree exists before the first one starts, so each sandbox can hide all the
others (`workspace.hidden_for`).
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from lanegate import git, treewalk
from lanegate.authorship import Authorship
from lanegate.candidates import shared, workspace
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
from lanegate.errors import LanegateError, UsageError
from lanegate.ledgers.load import write_document
from lanegate.ledgers.models import CandidatesReport
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
    shared_map: bool = True


@dataclass(frozen=True, slots=True)
class BatchResult:
    """The combined report, where it went, and each candidate's run outcome."""

    report: CandidatesReport
    report_path: Path
    markdown_path: Path
    outcomes: tuple[CandidateOutcome, ...]
    base_seconds: float


def resolve_heads(repo: Path, base: str, heads: tuple[str, ...]) -> tuple[str, list[str]]:
    """The merge base every head shares with `base`, and the heads' commits (fail closed on a
    head given twice, one with no commit beyond the base, or one forked from another point)."""
    if not heads:
        raise UsageError("no candidate heads given", hint="lanegate candidates --base REF HEAD...")
    if len(heads) > MAX_CANDIDATES:
        raise UsageError(f"{len(heads)} candidates: at most {MAX_CANDIDATES} in one batch")
    base_commit = git.resolve_commit(repo, base)
    commits: list[str] = []
    merge_base: str | None = None
    for ref in heads:
        commit = git.resolve_commit(repo, ref)
        if commit in commits:
            raise UsageError(f"candidate {ref}: {commit[:12]} is given twice")
        point = git.merge_base(repo, base_commit, commit)
        if point == commit:
            raise UsageError(f"candidate {ref}: no commit beyond the base {base}: nothing to judge")
        if merge_base is None:
            merge_base = point
        elif point != merge_base:
            raise UsageError(
                f"candidate {ref}: its merge base with {base} is {point[:12]}, the first "
                f"candidate's is {merge_base[:12]}: a batch shares one base",
                hint="rebase the candidates on one commit, or judge them in separate batches",
            )
        commits.append(commit)
    return str(merge_base), commits


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


def judge_candidates(
    request: BatchRequest, on_done: Callable[[CandidateOutcome], None] | None = None
) -> BatchResult:
    """Judge every head; write candidates.json and candidates.md into `request.out_dir`."""
    started = time.monotonic()
    # the batch reaps the orphaned processes of its sandboxes (the map's and the candidates'):
    # their CPU is then counted in its own, as a `lanegate run` counts its lanes'
    children.become_subreaper()
    repo = request.repo.resolve()
    base_commit, commits = resolve_heads(repo, request.base, request.heads)
    out_dir = request.out_dir.resolve()
    prepare_out(out_dir)
    root = Path(tempfile.mkdtemp(prefix="lanegate-candidates-"))
    try:
        space = workspace.open_workspace(repo, root, base_commit)
        names = [f"{i:02d}-{c[:12]}" for i, c in enumerate(commits, start=1)]
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
            for name, ref, commit, tree in zip(names, request.heads, commits, trees, strict=True)
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
        entries = [
            entry_for(
                Judged.from_outcome(o),
                repo=o.job.tree,
                base=base_commit,
                policy=_policy(o.job.tree),
                relative_to=out_dir,
            )
            for o in outcomes
        ]
    finally:
        shared.release(root)
        treewalk.rmtree(root, ignore_errors=True)
    facts = BatchFacts(
        base_ref=request.base,
        base_commit=base_commit,
        coverage_map_digest=base.map_digest,
        jobs=request.jobs,
        wall_seconds=time.monotonic() - started,
        now=request.now,
    )
    report = combine(entries, facts)
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
    _, commits = resolve_heads(repo, base, heads)
    # the lanes' ledgers name the base as given (resolved), as `lanegate score --base` agrees it
    base_commit = git.resolve_commit(repo, base)
    out_dir = out_dir.resolve()
    prepare_out(out_dir)
    policy = _policy(repo)
    entries = []
    for index, (ref, commit) in enumerate(zip(heads, commits, strict=True), start=1):
        folder = runs.resolve() / str(index)
        errors = () if folder.is_dir() else (f"{folder}: no ledgers for candidate {ref}",)
        judged = Judged(ref, commit, folder, ran=not errors, errors=errors)
        entries.append(
            entry_for(judged, repo=repo, base=base_commit, policy=policy, relative_to=out_dir)
        )
    facts = BatchFacts(
        base_ref=base,
        base_commit=base_commit,
        coverage_map_digest=None,
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
