"""The whole suite, collected at head and at the merge base the way the project's own `pytest` run
collects it (its configuration, no paths), once per flake-lane run.

The lanes collect only the diff's test files, so a diff that breaks the project's own run outside
them would pass unseen: a new `tests/unit/test_codec.py` beside `tests/test_codec.py` (and no
`__init__.py`) is an import-file mismatch for the whole run; a conftest that ignores a folder
loses its tests. What head collects is compared with what the base collects: a collector failing
only at head, or a test outside the files the diff touched that only the base collects, fails
(`flake-suite-collection`). The base is collected from a copy of its tree in a sandbox of its own.
"""

from __future__ import annotations

import tarfile
import tempfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.errors import GitError, RunnerError, SandboxError
from lanegate.lanes.flake.collect import collect_command
from lanegate.lanes.flake.execute import ReplaySpec, check_refusal, run_replay
from lanegate.ledgers.models import CollectError, SuiteCollection
from lanegate.sandbox import Sandbox, open_sandbox

MAX_LISTED = 50
SUITE_REPLAY = 0  # recorded as the collection is: never one of the plan's replays


@dataclass(frozen=True, slots=True)
class Collected:
    """One whole-suite collection: node ids, and each failed collector with pytest's words."""

    node_ids: frozenset[str]
    errors: dict[str, str]


def compare(head: Collected, base: Collected, touched: Iterable[str]) -> SuiteCollection:
    """What the diff changed in the suite's collection (pure)."""
    paths = frozenset(touched)
    new = sorted(c for c in head.errors if c not in base.errors)
    lost = sorted(n for n in base.node_ids - head.node_ids if n.split("::", 1)[0] not in paths)
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
    repo: Path, forbidden: Sequence[str], wall: float, work: Path, box: Sandbox
) -> Collected:
    run = run_replay(
        repo, ReplaySpec(SUITE_REPLAY, collect_command([], forbidden)), wall, work, sandbox=box
    )
    check_refusal(run)
    if run.timed_out:
        raise RunnerError(f"collecting the whole suite exceeded {wall:.0f} s")
    node_ids: set[str] = set()
    errors: dict[str, str] = {}
    reported = False
    for line in run.lines:
        if line.get("kind") == "collected":
            reported = True
            node_ids.update(str(entry[0]) for entry in line.get("runs", []))
        elif line.get("kind") == "collect_error":
            errors[str(line.get("node_id"))] = str(line.get("text") or line.get("detail", ""))[:500]
    if not reported and not errors:
        tail = [ln for ln in run.output_tail.strip().splitlines() if ln.strip()][-1:]
        raise RunnerError(
            f"pytest exited {run.exit_code} before collecting the whole suite: "
            + (tail[0] if tail else "no output")
        )
    return Collected(frozenset(node_ids), errors)


def _kept(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    """tarfile's `data` filter, leaving out (not failing on) what it refuses: a link out of the tree."""
    try:
        return tarfile.data_filter(member, dest)
    except tarfile.FilterError:
        return None


def _base_tree(repo: Path, commit: str, into: Path) -> Path:
    """The merge base's tracked files, written under `into` (what a checkout of it holds)."""
    archive = into / "base.tar"
    git.run_git(repo, "archive", "--format=tar", f"--output={archive}", commit)
    tree = into / "tree"
    tree.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter=_kept)
    archive.unlink()
    return tree


def collect_suite(
    repo: Path,
    base_commit: str,
    touched: Iterable[str],
    forbidden: Sequence[str],
    wall_seconds: float,
    *,
    sandbox: Sandbox,
) -> SuiteCollection:
    """The whole suite at head (in `sandbox`) and at `base_commit` (a copy of its tree, in a
    sandbox of the same limits), compared; a collection that cannot finish is `ran=False` with why."""
    try:
        with (
            tempfile.TemporaryDirectory(prefix="lanegate-suite-") as work,
            ThreadPoolExecutor(max_workers=1) as pool,
        ):
            # the head's collection runs while the base's tree is written and collected
            head_run = pool.submit(_collected, repo, forbidden, wall_seconds, Path(work), sandbox)
            try:
                tree = _base_tree(repo, base_commit, Path(work))
                with open_sandbox(tree, sandbox.limits, enabled=sandbox.enabled) as box:
                    base = _collected(tree, forbidden, wall_seconds, Path(work), box)
            finally:
                head = head_run.result()
    except (RunnerError, GitError, SandboxError, OSError, tarfile.TarError) as error:
        return SuiteCollection(ran=False, detail=str(error)[:500])
    return compare(head, base, touched)
