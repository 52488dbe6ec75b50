"""The whole suite, collected at head and at the merge base the way the project's own `pytest` run
collects it (its configuration, no paths), once per flake-lane run.

The lanes collect only the diff's test files, so a diff that breaks the project's own run outside
them would pass unseen: a new `tests/unit/test_codec.py` beside `tests/test_codec.py` (and no
`__init__.py`) is an import-file mismatch for the whole run. What head collects is compared with
what the base collects: a collector failing only at head, or a test function outside the files the
diff touched that only the base collects, fails (`flake-suite-collection`).

The base is the head's own tree in the same sandbox at the same path, with the base's version of
every file the diff changed mounted over it and the files it added left out (the sandbox's
overlays): what is not tracked (a generated `_version.py`) is there on both sides, an editable
install resolves to the base's code, and test ids that hold a path are the same. Tests are compared
by function, not by parameter: ids with random or path-dependent parameters, and a parameter list
the diff changed on purpose, are no loss.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.diff import Change, ChangedFile
from lanegate.errors import GitError, RunnerError, SandboxError
from lanegate.lanes.flake.collect import collect_command, not_collected
from lanegate.lanes.flake.execute import ReplaySpec, check_refusal, run_replay
from lanegate.ledgers.models import CollectError, SuiteCollection
from lanegate.sandbox import Sandbox

MAX_LISTED = 50
# a base view is mounted file by file: past this many changed files it is not built (fail closed)
MAX_OVERLAYS = 2000
SUITE_REPLAY = 0  # recorded as the collection is: never one of the plan's replays


@dataclass(frozen=True, slots=True)
class Collected:
    """One whole-suite collection: node ids, each failed collector with pytest's words, and the
    collectors that skipped themselves (a module-level skip)."""

    node_ids: frozenset[str]
    errors: dict[str, str]
    skipped: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class BaseView:
    """The base's tree as the sandbox shows it over the head's: files mounted, files left out."""

    overlays: dict[Path, Path]
    removed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BaseCollection:
    """The base's whole-suite collection made once for many heads (`lanegate candidates`): on a
    clean checkout of `commit`, with these forbidden plugins. A head's run takes it in place of
    its base view's collection only when its merge base and forbidden plugins are these, and its
    tree holds nothing untracked (a fresh clone), so that its base view is exactly `commit`."""

    commit: str
    forbidden: tuple[str, ...]
    collected: Collected


def _function(node_id: str) -> str:
    return node_id.split("[", 1)[0]


def compare(head: Collected, base: Collected, touched: Iterable[str]) -> SuiteCollection:
    """What the diff changed in the suite's collection (pure): collectors failing only at head,
    and test functions outside `touched` that only the base collects."""
    paths = frozenset(touched)
    new = sorted(c for c in head.errors if c not in base.errors)
    at_head = {_function(n) for n in head.node_ids}
    at_base = {_function(n) for n in base.node_ids}
    # a module that skips itself at head (the diff turned a feature off) lost nothing: whether
    # the skip is fair is the base suite's question (`property-base-test-failed`)
    gone = paths | head.skipped
    lost = sorted(f for f in at_base - at_head if f.split("::", 1)[0] not in gone)
    return SuiteCollection(
        ran=True,
        head_tests=len(head.node_ids),
        base_tests=len(base.node_ids),
        new_errors=tuple(
            CollectError(collector=c, detail=head.errors[c]) for c in new[:MAX_LISTED]
        ),
        lost=tuple(lost[:MAX_LISTED]),
        lost_count=len(lost),
    )


def _collected(
    repo: Path,
    forbidden: Sequence[str],
    wall: float,
    work: Path,
    box: Sandbox,
    view: BaseView | None = None,
) -> Collected:
    spec = ReplaySpec(SUITE_REPLAY, collect_command([], forbidden))
    if view is None:
        run = run_replay(repo, spec, wall, work, sandbox=box)
    else:
        run = run_replay(
            repo, spec, wall, work, sandbox=box, overlays=view.overlays, removed=view.removed
        )
    check_refusal(run)
    if run.timed_out:
        raise RunnerError(f"collecting the whole suite exceeded {wall:.0f} s")
    node_ids: set[str] = set()
    errors: dict[str, str] = {}
    skipped: set[str] = set()
    reported = False
    for line in run.lines:
        if line.get("kind") == "collected":
            reported = True
            node_ids.update(str(entry[0]) for entry in line.get("runs", []))
        elif line.get("kind") == "collect_skipped":
            skipped.add(str(line.get("node_id")))
        elif line.get("kind") == "collect_error":
            errors[str(line.get("node_id"))] = str(line.get("text") or line.get("detail", ""))[:500]
    if not reported and not errors:
        raise not_collected(run, "the whole suite")
    return Collected(frozenset(node_ids), errors, frozenset(skipped))


def base_view(repo: Path, base_commit: str, files: Sequence[ChangedFile], into: Path) -> BaseView:
    """The base's version of every file the diff changed, staged under `into` to be mounted over
    the head's tree (a link at base is left as head has it), and the files it added to leave out."""
    removed = [f.path for f in files if f.change in (Change.ADDED, Change.RENAMED)]
    restore = [f.old_path or f.path for f in files if f.change is not Change.ADDED]
    if len(restore) > MAX_OVERLAYS:  # only these are mounted one by one; left-out files are free
        raise RunnerError(
            f"the diff changes, renames or deletes {len(restore)} files; the base's view of the "
            f"suite mounts at most {MAX_OVERLAYS} of them"
        )
    links = {
        p
        for p, mode in git.tree_modes(repo, base_commit, restore).items()
        if mode == git.SYMLINK_MODE
    }
    git.prefetch_files(repo, [(base_commit, p) for p in restore if p not in links])
    overlays: dict[Path, Path] = {}
    for index, path in enumerate(restore):
        data = None if path in links else git.show_file(repo, base_commit, path)
        if data is None:
            continue
        staged = into / f"{index:05d}"
        staged.write_bytes(data)
        overlays[repo / path] = staged
    return BaseView(overlays, tuple(removed))


def collect_suite(
    repo: Path,
    base_commit: str,
    files: Sequence[ChangedFile],
    forbidden: Sequence[str],
    wall_seconds: float,
    *,
    sandbox: Sandbox,
    shared: BaseCollection | None = None,
) -> SuiteCollection:
    """The whole suite at head and at `base_commit` (the base's view over the head's tree), both
    in `sandbox`, side by side, compared; a collection that cannot finish is `ran=False`, why.
    `shared`: the base's collection made once for a batch, taken when it fits (`usable`)."""
    touched = {f.path for f in files} | {f.old_path for f in files if f.old_path}
    reuse = shared if shared is not None and usable(shared, repo, base_commit, forbidden) else None
    try:
        with (
            tempfile.TemporaryDirectory(prefix="lanegate-suite-") as work,
            ThreadPoolExecutor(max_workers=1) as pool,
        ):
            head_run = pool.submit(_collected, repo, forbidden, wall_seconds, Path(work), sandbox)
            try:
                if reuse is not None:
                    base = reuse.collected
                else:
                    staged = Path(work) / "base"
                    staged.mkdir()
                    view = base_view(repo, base_commit, files, staged)
                    base = _collected(repo, forbidden, wall_seconds, Path(work), sandbox, view)
            finally:
                head = head_run.result()
    except (RunnerError, GitError, SandboxError, OSError) as error:
        return SuiteCollection(ran=False, detail=str(error)[:500])
    return compare(head, base, touched)


def usable(shared: BaseCollection, repo: Path, base_commit: str, forbidden: Sequence[str]) -> bool:
    """Whether a head's base view is exactly the tree `shared` was collected on: the same commit,
    the same forbidden plugins, and nothing untracked or ignored in the head's tree."""
    if shared.commit != base_commit or tuple(forbidden) != shared.forbidden:
        return False
    status = git.run_git(
        repo, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching"
    )
    return not status


def collect_base(
    repo: Path, forbidden: Sequence[str], wall_seconds: float, *, sandbox: Sandbox
) -> BaseCollection:
    """The whole suite's collection of the clean checkout `repo` (a batch's base), once."""
    commit = git.resolve_commit(repo, "HEAD")
    with tempfile.TemporaryDirectory(prefix="lanegate-suite-") as work:
        collected = _collected(repo, forbidden, wall_seconds, Path(work), sandbox)
    return BaseCollection(commit, tuple(forbidden), collected)
