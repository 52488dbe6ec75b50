"""The base tests that fail at head, re-run on the base's own code: which failures pre-date the diff.

A base test that fails (or errors, or cannot be collected) at head is run again on the merge base:
the same sandbox, interpreter and installed environment, the same flags and seed, with every file
the diff touched put back as the base has it (modified and deleted files restored from git, added
ones left out of the sandbox's copy), so nothing the head wrote is in the run. It is a
`pre-existing` failure only when it fails the same way (outcome and failure line) in every one of
`authorship.min_replays` fresh runs at base (side by side, read in round order); a pass at base
(the diff broke it), a pass after a failure (flaky at base: the lane cannot tell the diff's failure
from the base's flake) or another failure leave the head failure standing.

The environment is the one thing both runs share that the diff may have shaped: the install step
reads dependency declarations and build inputs from the head. A diff that changes any of them gets
no recheck (`not-checked`): a failure at base would then not be evidence about the base.
"""

from __future__ import annotations

import dataclasses
import re
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from lanegate import git, treewalk
from lanegate.diff import Change, DiffSummary
from lanegate.errors import LanegateError
from lanegate.lanes.context import usable_cpus
from lanegate.lanes.property.base_suite import COLLECT_DETAIL
from lanegate.lanes.property.baseline import run_baseline
from lanegate.lanes.property.map_key import LOCK_NAMES
from lanegate.lanes.pytest_args import path_argument
from lanegate.ledgers.models import BaseRecheck, BaseTestRun
from lanegate.policy import Policy
from lanegate.sandbox import Sandbox, sandbox_interpreter

RECHECKED = frozenset({"failed", "error"})
COLLECTION = "the base test file cannot be collected"
# what the install step reads or builds from the tree (besides LOCK_NAMES): a diff changing one of
# these may have changed the environment both runs share
BUILD_NAMES = frozenset(
    {
        "hatch_build.py",
        "build.py",
        "MANIFEST.in",
        "Cargo.toml",
        "Cargo.lock",
        "meson.build",
        "CMakeLists.txt",
    }
)
BUILD_SUFFIXES = (
    ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".pyx", ".pxd", ".pxi", ".rs", ".f", ".f90", ".pth",
)  # fmt: skip
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_REGULAR = (b"100644", b"100755")


@dataclass(frozen=True, slots=True)
class BaseTree:
    """How the sandbox's copy of the head tree becomes the base tree: files mounted over it
    (destination -> staged base bytes), the files the diff added, left out, and the test folders
    frozen as the base suite's run had them (`sandbox.frozen`)."""

    overlays: dict[Path, Path]
    removed: tuple[str, ...]
    frozen: tuple[str, ...] = ()


def environment_input(path: str) -> bool:
    """A file the install step reads (dependencies, build configuration, compiled sources)."""
    name = PurePosixPath(path).name
    return (
        name in LOCK_NAMES
        or name in BUILD_NAMES
        or name.startswith(("requirements", "constraints"))
        or name.endswith(BUILD_SUFFIXES)
    )


def signature(outcome: str, detail: str) -> str:
    """How a failure is compared between head and base: the outcome and the failure's last line
    (pytest's `path:line: Error`), with memory addresses blanked."""
    return f"{outcome}\0{_ADDRESS.sub('0x?', detail.strip())}"


def _refusal(summary: DiffSummary) -> str:
    """Why the base cannot be rebuilt trustworthily for this diff ("" when it can)."""
    if sandbox_interpreter().venv is not None:
        # `lanegate install` built the head's tree into that venv: any module the build backend
        # imported (a computed `__version__` is enough) ran there and may have left code (a `.pth`)
        # that runs in every later process, the run at base included
        return (
            "the tests run in a venv the head's build filled (LANEGATE_TESTS_PYTHON): code the "
            "diff put there runs at base too, so a failure at base proves nothing"
        )
    for changed in summary.files:
        for path in (changed.path, changed.old_path):
            if path and environment_input(path):
                return (
                    f"the diff changes {path}, which the install step reads: the environment "
                    "both runs share may be the diff's, so a failure at base proves nothing"
                )
    return ""


def _base_tree(repo: Path, summary: DiffSummary, staging: Path) -> BaseTree | str:
    """The overlays and removals that turn the head tree into the base tree, or why they cannot."""
    restore = sorted(
        {
            path
            for f in summary.files
            for path in ((f.old_path or f.path),)
            if f.change is not Change.ADDED
        }
    )
    removed = sorted(
        {f.path for f in summary.files if f.change in (Change.ADDED, Change.RENAMED)} - set(restore)
    )
    modes = git.tree_modes(repo, summary.merge_base, restore)
    overlays: dict[Path, Path] = {}
    for index, path in enumerate(restore):
        if modes.get(path) not in _REGULAR:
            return f"{path} is not a regular file at the base (a link or a submodule)"
        data = git.show_file(repo, summary.merge_base, path)
        if data is None:
            return f"{path} is missing at the base"
        staged = staging / f"{index:05d}-{PurePosixPath(path).name}"
        staged.write_bytes(data)
        overlays[repo / path] = staged
    return BaseTree(overlays, tuple(removed))


def _base_outcome(record: dict[str, Any], node_id: str) -> tuple[str, str]:
    """A node id's outcome and failure line in one base run (a collector's id: whether it
    collected)."""
    errors = {str(e) for e in record.get("collect_errors", [])}
    path = node_id.split("::", 1)[0]
    if node_id in errors or path in errors:
        return "error", COLLECTION
    entry = record.get("tests", {}).get(node_id)
    if entry is not None:
        return str(entry.get("outcome", "missing")), str(entry.get("detail", ""))
    collected = [str(n) for n in record.get("collected") or []]
    if any(n.startswith(node_id + "::") for n in collected):
        return "passed", ""  # a collector that failed at head collects at base
    return "missing", ""


def _head_signature(run: BaseTestRun) -> str:
    if run.detail.startswith(COLLECT_DETAIL):
        return signature("error", COLLECTION)
    return signature(run.outcome, run.detail)


def judge(head: BaseTestRun, outcomes: Sequence[tuple[str, str]], runs: int) -> tuple[str, str]:
    """The recheck's verdict and reason from the base runs made so far (outcome, failure line)."""
    first_pass = next((i for i, (o, _) in enumerate(outcomes) if o not in RECHECKED), None)
    if first_pass == 0:
        kind = outcomes[0][0]
        return "passes-at-base", f"{kind} at base: the failure is the head's"
    if first_pass is not None:
        return "flaky-at-base", (
            f"failed {first_pass} of {first_pass + 1} runs at base, then "
            f"{outcomes[first_pass][0]}: a flaky base test cannot excuse a failure at head"
        )
    wanted = _head_signature(head)
    if any(signature(o, d) != wanted for o, d in outcomes):
        return "differs-at-base", "fails at base too, but not the way it fails at head"
    if len(outcomes) < runs:
        return "not-checked", f"only {len(outcomes)} of {runs} runs at base finished"
    return "pre-existing", f"fails the same way in {len(outcomes)} of {runs} runs at base"


def recheck_at_base(
    repo: Path,
    summary: DiffSummary,
    policy: Policy,
    runs: Sequence[BaseTestRun],
    *,
    sandbox: Sandbox,
    frozen: Sequence[str] = (),
) -> list[BaseRecheck]:
    """Re-run the base tests that failed or errored at head on the base's own code (see module),
    with the test folders the base suite's run froze frozen as well (`frozen`): a test that fails
    for writing there fails the same way at base."""
    failing = [r for r in runs if r.outcome in RECHECKED]
    if not failing:
        return []
    rounds = policy.authorship.min_replays
    refusal = _refusal(summary)
    staging = Path(tempfile.mkdtemp(prefix="lanegate-base-recheck-"))
    seen: dict[str, list[tuple[str, str]]] = {r.node_id: [] for r in failing}
    try:
        tree = refusal or _base_tree(repo, summary, staging)
        if isinstance(tree, str):
            refusal = tree
        else:
            tree = dataclasses.replace(tree, frozen=tuple(frozen))
            refusal = _run_rounds(
                repo, policy, [r.node_id for r in failing], tree, sandbox, rounds, seen
            )
    except LanegateError as exc:
        refusal = f"the run at base did not finish: {exc}"[:4096]
    finally:
        treewalk.rmtree(staging, ignore_errors=True)
    out = []
    for run in failing:
        outcomes = seen[run.node_id]
        if refusal and not _decided(outcomes, rounds):
            verdict, reason = "not-checked", refusal
        else:
            verdict, reason = judge(run, outcomes, rounds)
        out.append(
            BaseRecheck(
                node_id=run.node_id,
                verdict=verdict,
                head_outcome=run.outcome,
                head_detail=run.detail[:4096],
                base_outcomes=tuple(o for o, _ in outcomes),
                base_detail=(outcomes[-1][1] if outcomes else "")[:4096],
                reason=reason[:4096],
            )
        )
    return out


def _run_rounds(
    repo: Path,
    policy: Policy,
    node_ids: list[str],
    tree: BaseTree,
    sandbox: Sandbox,
    rounds: int,
    seen: dict[str, list[tuple[str, str]]],
) -> str:
    """The `rounds` fresh runs at base, side by side (each its own sandboxed process), read in
    round order into `seen`: a pass ends a test's recheck, so the runs after it are not read and
    the verdicts are those of running the rounds one after the other. Returns why a run did not
    finish ("" when every run read did)."""
    workers = max(1, min(rounds, usable_cpus()))
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="lanegate-recheck")
    try:
        runs = [
            pool.submit(_run_at_base, repo, policy, node_ids, tree, sandbox) for _ in range(rounds)
        ]
        for run in runs:
            pending = [n for n in node_ids if _still_failing(seen[n])]
            if not pending:
                break
            try:
                record = run.result()
            except LanegateError as exc:
                return f"the run at base did not finish: {exc}"[:4096]
            for node_id in pending:
                seen[node_id].append(_base_outcome(record, node_id))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # rounds not started are not run
    return ""


def _still_failing(outcomes: list[tuple[str, str]]) -> bool:
    return all(o in RECHECKED for o, _ in outcomes)


def _decided(outcomes: list[tuple[str, str]], rounds: int) -> bool:
    """Whether the runs made so far decide the verdict (a pass decides; failures need every run)."""
    return bool(outcomes) and (not _still_failing(outcomes) or len(outcomes) >= rounds)


def _run_at_base(
    repo: Path, policy: Policy, node_ids: Sequence[str], tree: BaseTree, sandbox: Sandbox
) -> dict[str, Any]:
    """One fresh sandboxed run of `node_ids` on the base tree; returns its record."""
    files = sorted({n.split("::", 1)[0] for n in node_ids})
    selection = [path_argument(p) for p in files]
    keep = {"node_ids": sorted(n for n in node_ids if "::" in n), "files": []}
    baseline = run_baseline(
        repo,
        policy,
        [],
        selection=selection,
        sandbox=sandbox,
        overlays=tree.overlays,
        removed=tree.removed,
        frozen=tree.frozen,
        keep=keep,
        extra_flags=["--lanegate-guard-reads"],  # as the base suite's run had it
    )
    return baseline.record
