"""Building the coverage map of a commit: one traced run of its whole test suite, in the sandbox.

Run on the default branch (trusted code, a clean checkout): every test file pytest would collect (by
pytest's default names and the commit's `python_files`), every other tracked Python file traced by
qualified name from the moment the plugin loads, so that calls at import or collection time are
recorded as ambient and broader-scope fixtures credit every test that uses them.
"""

from __future__ import annotations

import time
from pathlib import Path, PurePosixPath
from typing import Any

from lanegate import git
from lanegate.diff import is_test_file
from lanegate.errors import CoverageMapError
from lanegate.lanes import pytest_ini
from lanegate.lanes.property.baseline import pytest_flags, run_baseline
from lanegate.lanes.property.map_file import OUTCOMES, CoverageMapFile, MapTest
from lanegate.lanes.property.map_key import map_key, tree_blobs
from lanegate.lanes.pytest_args import path_argument
from lanegate.policy import Policy
from lanegate.sandbox import Sandbox


def suite_files(repo: Path, commit: str) -> tuple[list[str], dict[str, str]]:
    """The commit's test files (what the map runs) and the other Python files (what it traces)."""
    blobs = tree_blobs(repo, commit)
    ini = pytest_ini.read(repo, commit)
    tests: list[str] = []
    traced: dict[str, str] = {}
    for path, blob in sorted(blobs.items()):
        if not path.endswith(".py") or PurePosixPath(path).name == "conftest.py":
            continue
        if is_test_file(path) or ini.collects(path):
            tests.append(path)
        else:
            traced[path] = blob
    return tests, traced


def _relative(item: str, root: str) -> str | None:
    path, sep, qualname = item.partition("::")
    if not sep or not path.startswith(root + "/"):
        return None
    return f"{path[len(root) + 1 :]}::{qualname}"


def build_map(repo: Path, policy: Policy, *, sandbox: Sandbox) -> CoverageMapFile:
    """The coverage map of the checked-out commit (which must be clean: the map is of the commit)."""
    if git.is_dirty(repo):
        raise CoverageMapError(
            f"{repo}: the work tree has uncommitted changes",
            hint="build the map on a clean checkout of the default branch",
        )
    commit = git.resolve_commit(repo, "HEAD")
    tests, traced = suite_files(repo, commit)
    key = map_key(repo, commit, pytest_flags(policy))
    started = time.perf_counter()
    root = str(repo.resolve())
    record: dict[str, Any] = {"tests": {}, "collect_errors": [], "ambient": []}
    if tests:
        selection = [path_argument(p) for p in tests]
        baseline = run_baseline(
            repo,
            policy,
            [repo / p for p in traced],
            selection=selection,
            sandbox=sandbox,
            extra_flags=["--lanegate-map"],
        )
        record = baseline.record
    index: dict[str, int] = {}

    def ids(items: Any) -> frozenset[int]:
        out = set()
        for item in items if isinstance(items, list) else []:
            name = _relative(str(item), root)
            if name is not None:
                out.add(index.setdefault(name, len(index)))
        return frozenset(out)

    ambient = ids(record.get("ambient", []))
    map_tests = {}
    for node_id, entry in sorted(record.get("tests", {}).items()):
        outcome = str(entry.get("outcome"))
        map_tests[str(node_id)] = MapTest(
            outcome=outcome if outcome in OUTCOMES else "error",
            opaque=bool(entry.get("opaque", False)),
            reached=ids(entry.get("covered", [])),
        )
    return CoverageMapFile(
        key=key,
        traced_files=traced,
        functions=tuple(sorted(index, key=index.__getitem__)),
        ambient=ambient,
        tests=map_tests,
        collect_errors=tuple(str(e) for e in record.get("collect_errors", [])),
        build_seconds=time.perf_counter() - started,
    )
