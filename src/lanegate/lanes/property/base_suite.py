"""The base's own tests, as of the merge base, run against the head's code: the trusted oracle.

The test files of the merge base run in one sandboxed pytest process of their own, apart from the
head's, with the files the diff changed or deleted restored (mounted read-only over the copy of the
tree) and none of the diff's new test modules loaded, so nothing the diff added to the test run can
reach these outcomes; a file that cannot be collected is that file's error, the other files still
run (`--continue-on-collection-errors`). The run is traced like the head's baseline: for the base files the diff did
not touch, its record is the lane's baseline (see `suite_split`), so the suite runs once. A base
test that fails, errors, or cannot be collected at head fails the lane; one skipped from outside its
own test file (the code under test raising `pytest.skip`) counts as not passing.
"""

from __future__ import annotations

import hashlib
import posixpath
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath
from typing import Any

from lanegate import git, treewalk
from lanegate.diff import Change, DiffSummary, is_test_file
from lanegate.errors import RunnerError
from lanegate.lanes import pytest_ini
from lanegate.lanes.collect_failure import import_hint
from lanegate.lanes.property.baseline import Baseline, run_baseline
from lanegate.lanes.property.map_select import BaselineChoice
from lanegate.lanes.property.standby import Standby
from lanegate.lanes.pytest_args import path_argument
from lanegate.ledgers.models import BaseTestRun
from lanegate.policy import Policy
from lanegate.sandbox import Sandbox

PASSING = frozenset({"passed"})
_TEST_FOLDERS = frozenset({"tests", "test"})
COLLECT_DETAIL = "the base test file cannot be collected at head"


@dataclass(frozen=True, slots=True)
class BaseSuite:
    """The merge base's test files, and which of them the diff changed or deleted (restored)."""

    files: tuple[str, ...]
    restored: tuple[str, ...]
    # modules beside the tests (`tests/strategies.py`) the diff changed or deleted: restored too, so
    # a weakened shared strategy or helper cannot weaken the base's tests
    helpers: tuple[str, ...] = ()
    # every Python file of the base the suite's process imports as the base's own: test files,
    # modules in test folders and conftest files, served from verified bytes (`protected`)
    protected: tuple[str, ...] = ()
    # the test folders (`tests/`, `pkg/test/`: the outermost of those names) holding any of them,
    # which the suite's process sees frozen (`sandbox.frozen`): their data files cannot change
    frozen: tuple[str, ...] = ()
    # the other files of those folders the diff changed or deleted (an expected output a base test
    # reads: restored like the tests, SPEC 9: the base's tests are the oracle, data and all), and
    # every file it added there, modules included (left out of the suite's tree)
    data: tuple[str, ...] = ()
    added: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BaseSuiteRun:
    """One run of the base suite at head: the suite, each base test's outcome, and the traced
    record of the run (None when no base test file was to run)."""

    suite: BaseSuite
    runs: tuple[BaseTestRun, ...]
    traced: Baseline | None


def _in_testpaths(path: str, testpaths: tuple[str, ...]) -> bool:
    """Whether pytest, run without arguments, would look at `path` (no `testpaths`: everywhere)."""
    if not testpaths:
        return True
    for entry in testpaths:
        root = entry.strip("/").removeprefix("./")
        if root in ("", "."):
            return True
        if path == root or path.startswith(root + "/") or fnmatch(path, root + "/*"):
            return True
    return False


def base_suite(repo: Path, summary: DiffSummary) -> BaseSuite:
    """The test files of the merge base (pytest's default names; conftest files are gate inputs),
    within the base's own `testpaths` when it sets them: a `bench/test_*.py` the project never runs
    is not its suite (the configuration is a gate input, read at the merge base)."""
    listing = git.file_names(repo, summary.merge_base)
    names = []
    for raw in listing.split(b"\0"):
        try:
            names.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            shown = raw.decode("utf-8", "backslashreplace")
            raise RunnerError(
                f"the merge base has a path that is not UTF-8: {shown!r}",
                hint="rename it: lanegate's ledgers name every test they run, in UTF-8",
            ) from None
    testpaths = pytest_ini.read(repo, summary.merge_base).words("testpaths")
    files = sorted(
        name
        for name in names
        if is_test_file(name)
        and PurePosixPath(name).name != "conftest.py"
        and _in_testpaths(name, testpaths)
    )
    touched = {
        f.old_path or f.path
        for f in summary.files
        if f.change in (Change.MODIFIED, Change.DELETED, Change.RENAMED)
    } | {f.path for f in summary.files if f.change is Change.DELETED}
    helpers = sorted(
        name
        for name in names
        if name in touched
        and name.endswith(".py")
        and not is_test_file(name)
        and _TEST_FOLDERS.intersection(PurePosixPath(name).parts[:-1])
    )
    protected = sorted(
        name
        for name in names
        if name.endswith(".py")
        and (
            is_test_file(name)
            or PurePosixPath(name).name == "conftest.py"
            or _TEST_FOLDERS.intersection(PurePosixPath(name).parts[:-1])
        )
    )
    frozen = frozenset(_test_folders(protected))
    base_names = frozenset(names)

    def in_frozen(name: str) -> bool:
        # a lookup per folder above the file, not a scan of the folders per file (a diff of
        # thousands of files beside hundreds of test folders)
        parts = name.split("/")
        return any("/".join(parts[:depth]) in frozen for depth in range(1, len(parts) + 1))

    # the Python files the diff touched there are restored as tests or helpers; every file it
    # added there is left out, modules too: a package the diff adds beside the tests comes first
    # on sys.path for them and could stand in for the code they test
    data = sorted(
        name for name in names if name in touched and in_frozen(name) and not name.endswith(".py")
    )
    added = sorted(
        f.path
        for f in summary.files
        if f.change in (Change.ADDED, Change.RENAMED)
        and f.path not in base_names
        and in_frozen(f.path)
    )
    return BaseSuite(
        tuple(files),
        tuple(p for p in files if p in touched),
        tuple(helpers),
        tuple(protected),
        tuple(sorted(frozen)),
        tuple(data),
        tuple(added),
    )


def _test_folders(paths: Sequence[str]) -> tuple[str, ...]:
    """The outermost folder named as a test folder on each of `paths` (none for a file outside one,
    such as a test module at the root or beside the code it tests)."""
    found = set()
    for path in paths:
        parts = PurePosixPath(path).parts[:-1]
        for depth, part in enumerate(parts, start=1):
            if part in _TEST_FOLDERS:
                found.add("/".join(parts[:depth]))
                break
    return tuple(sorted(found))


def _relative(path: str, root: Path) -> str:
    candidate = Path(path)
    if candidate.is_absolute():
        try:
            return candidate.relative_to(root).as_posix()
        except ValueError:
            return path
    return candidate.as_posix()


def _expects_tests(data: bytes | None) -> bool:
    """Whether a base test file defines tests at all (helper modules named test_*.py may not)."""
    return data is not None and (
        b"def test" in data or b"class Test" in data or b"TestCase" in data
    )


def _runs(
    record: dict[str, Any], suite: BaseSuite, changed: set[str], repo_root: Path
) -> list[BaseTestRun]:
    restored = set(suite.restored)
    runs: list[BaseTestRun] = []
    tests: dict[str, Any] = record.get("tests", {})
    for node_id in sorted(tests):
        entry = tests[node_id]
        path = node_id.split("::")[0]
        outcome = str(entry.get("outcome", "missing"))
        # the failure's last line (pytest's `path:line: Error`): shown, and compared at base
        detail = str(entry.get("detail", ""))[:4096] if outcome in ("failed", "error") else ""
        skip_from = entry.get("skip_from")
        if outcome == "skipped" and skip_from and _relative(str(skip_from), repo_root) in changed:
            outcome, detail = "skipped-from-code", f"skipped by code the diff changed: {skip_from}"
        runs.append(
            BaseTestRun(node_id=node_id, outcome=outcome, restored=path in restored, detail=detail)
        )
    details = record.get("collect_error_details")
    details = details if isinstance(details, dict) else {}
    for node_id in record.get("collect_errors", []):
        path = str(node_id).split("::")[0]
        why = str(details.get(str(node_id), ""))[:300]
        hint = import_hint(why, repo_root)
        runs.append(
            BaseTestRun(
                node_id=str(node_id),
                outcome="error",
                restored=path in restored,
                detail=COLLECT_DETAIL + (f": {why}" if why else "") + (f"; {hint}" if hint else ""),
            )
        )
    return runs


@dataclass(frozen=True, slots=True)
class BaseOverlays:
    """The base versions of the test files the diff touched and of the test helpers it changed,
    staged to be mounted over the head's tree. They follow from the diff alone, so the base suite's
    process can start before the coverage map is read."""

    staging: Path
    overlays: dict[Path, Path]
    # relative path -> SHA-256 of the bytes the base suite's process must import for it
    digests: dict[str, str] = field(default_factory=dict)

    def close(self) -> None:
        """Remove the staged files (a second call does nothing)."""
        treewalk.rmtree(self.staging, ignore_errors=True)


def stage_base_overlays(repo: Path, summary: DiffSummary, suite: BaseSuite) -> BaseOverlays:
    """Stage every restored base test file, every touched helper and every touched data file of a
    test folder (see `BaseOverlays`)."""
    staging = Path(tempfile.mkdtemp(prefix="lanegate-base-tests-"))
    overlays: dict[Path, Path] = {}
    digests: dict[str, str] = {}
    try:
        paths = [*suite.restored, *suite.helpers, *suite.data]
        links = _links_at(repo, summary.merge_base, paths)
        for index, path in enumerate(paths):
            data = _base_bytes(repo, summary.merge_base, path, links)
            if data is None:
                continue
            staged = staging / f"{index:05d}-{PurePosixPath(path).name}"
            staged.write_bytes(data)
            overlays[repo / path] = staged
            if path.endswith(".py"):
                digests[path] = hashlib.sha256(data).hexdigest()
        for path in suite.protected:
            if path not in digests:
                found = _regular_file_bytes(repo / path)
                if found is not None:  # the head's copy: untouched, or a gate input it changed
                    digests[path] = hashlib.sha256(found).hexdigest()
    except BaseException:
        treewalk.rmtree(staging, ignore_errors=True)
        raise
    return BaseOverlays(staging, overlays, digests)


def _links_at(repo: Path, commit: str, paths: Sequence[str]) -> set[str]:
    """Which of `paths` are symbolic links at `commit`."""
    return {
        p for p, mode in git.tree_modes(repo, commit, paths).items() if mode == git.SYMLINK_MODE
    }


MAX_LINK_HOPS = 8


def _base_bytes(repo: Path, commit: str, path: str, links: set[str]) -> bytes | None:
    """The bytes a reader of `path` gets at `commit`: a link's target file's (followed within the
    tree, a few hops at most), not the link's own text; None where it leads nowhere in the tree."""
    current = path
    for _ in range(MAX_LINK_HOPS):
        data = git.show_file(repo, commit, current)
        if data is None or current not in links:
            return data
        target = data.decode("utf-8", "surrogateescape")
        joined = posixpath.normpath(posixpath.join(posixpath.dirname(current), target))
        if target.startswith("/") or joined == ".." or joined.startswith("../"):
            return None
        current = joined
        links = links | _links_at(repo, commit, [current])
    return None


def _regular_file_bytes(path: Path) -> bytes | None:
    """The bytes of a regular file of the work tree (not through a link), else None."""
    try:
        if path.is_symlink() or not path.is_file():
            return None
        return path.read_bytes()
    except OSError:
        return None


@dataclass(frozen=True, slots=True)
class StagedBaseSuite:
    """What the base suite's process runs, known before it starts: the base files to run, the base
    versions of every file the diff touched (mounted over the tree; the same whichever tests run,
    as in a full run), the pytest selection and the coverage map's keep list."""

    wanted: frozenset[str]
    files: BaseOverlays
    selection: tuple[str, ...]
    keep: dict[str, list[str]] | None

    @property
    def overlays(self) -> dict[Path, Path]:
        return self.files.overlays

    def close(self) -> None:
        """Remove the staged files."""
        self.files.close()


def stage_base_suite(
    repo: Path,
    summary: DiffSummary,
    suite: BaseSuite,
    choice: BaselineChoice | None = None,
    overlays: BaseOverlays | None = None,
) -> StagedBaseSuite | None:
    """Stage the base suite's run at head (None: no base test file is to run); in coverage-map mode
    only the selected base tests, and the selected files whole. `overlays`: already staged for this
    suite (`stage_base_overlays`); the answer then owns them, and None leaves them the caller's."""
    selective = choice is not None and choice.selective
    wanted = set(suite.files)
    if choice is not None and selective:
        wanted &= {n.split("::", 1)[0] for n in choice.node_ids} | set(choice.base_files)
    if not wanted:
        return None
    files = stage_base_overlays(repo, summary, suite) if overlays is None else overlays
    # a file named like an option (`-p_test.py`) is given as a path, never as a flag
    selection = tuple(path_argument(p) for p in suite.files if p in wanted)
    keep = None
    if choice is not None and selective:
        keep = {"node_ids": sorted(choice.node_ids), "files": list(choice.base_files)}
    return StagedBaseSuite(frozenset(wanted), files, selection, keep)


def run_base_suite(
    repo: Path,
    summary: DiffSummary,
    policy: Policy,
    *,
    sandbox: Sandbox,
    choice: BaselineChoice | None = None,
    stop: threading.Event | None = None,
    trace: Sequence[Path] = (),
    suite: BaseSuite | None = None,
    staged: StagedBaseSuite | None = None,
    standby: Standby | None = None,
) -> BaseSuiteRun:
    """Run the base's test files at head (restored where the diff touched them) in one process;
    in coverage-map mode only the selected base tests, and the selected files whole. `trace`: the
    files whose functions each test's record lists as called (the mutated files). `stop`, once
    set, kills the run (`RunnerError`). `suite`: `base_suite(repo, summary)`, when known.
    `staged`: `stage_base_suite`'s answer for this suite and choice, when known (its staged files
    are removed here); `standby`: the process started over its overlays (see `standby`)."""
    suite = base_suite(repo, summary) if suite is None else suite
    selective = choice is not None and choice.selective
    if staged is None:
        staged = stage_base_suite(repo, summary, suite, choice)
    if staged is None:
        return BaseSuiteRun(suite, (), None)
    wanted = staged.wanted
    try:
        # one file's collection error is that file's: the others' tests still run and count;
        # what the tests read their data with is watched (`read_guard`)
        flags = ["--continue-on-collection-errors", "--lanegate-guard-reads"]
        for tracer in ("probes", "calls") if trace else ("calls",):
            baseline = run_baseline(
                repo,
                policy,
                trace,
                selection=staged.selection,
                sandbox=sandbox,
                overlays=staged.overlays,
                removed=suite.added,
                frozen=suite.frozen,
                keep=staged.keep,
                stop=stop,
                extra_flags=[*flags, f"--lanegate-tracer={tracer}"],
                standby=standby,
                protect=staged.files.digests,
            )
            standby = None  # taken by the first run: a rerun with the tracer starts its own
            # probes miss a traced file that code loaded by a loader of its own: trace the calls
            if not baseline.record.get("unprobed"):
                break
    finally:
        staged.close()
    changed = {f.path for f in summary.files if f.change is not Change.DELETED}
    runs = _runs(baseline.record, suite, changed, repo)
    seen = {run.node_id.split("::")[0] for run in runs}
    runs += [
        BaseTestRun(
            node_id=path,
            outcome="missing",
            restored=path in suite.restored,
            detail="no test of this base file ran at head",
        )
        for path in suite.files
        if path in wanted
        and (not selective or path in choice_files(choice))
        and path not in seen
        and _expects_tests(git.show_file(repo, summary.merge_base, path))
    ]
    if choice is not None and selective:
        ran = {run.node_id for run in runs}
        runs += [
            BaseTestRun(
                node_id=node_id,
                outcome="missing",
                restored=node_id.split("::", 1)[0] in suite.restored,
                detail="selected by the coverage map but not run at head",
            )
            for node_id in sorted(choice.node_ids)
            if node_id not in ran and node_id.split("::", 1)[0] in wanted
        ]
    return BaseSuiteRun(suite, tuple(runs), baseline)


def choice_files(choice: BaselineChoice | None) -> frozenset[str]:
    """The base files a coverage-map choice runs whole (they did not collect at base)."""
    return frozenset(choice.base_files) if choice is not None else frozenset()
