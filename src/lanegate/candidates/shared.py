"""The base's work of a batch, done once from the trusted base commit before any candidate runs.

What a `lanegate run` computes from the base alone, apart from its head, on a clean checkout of the
base in the sandbox: the whole suite's collection (the flake lane's base side) and the coverage
map (one traced run of the base's whole suite), plus the base's history (the store every
candidate's clone borrows its objects from). The base's policy, lockfile and fixture digests are
read by each lane from the base commit's objects in that store: content-addressed, so no candidate
can change what they say, and a read costs milliseconds. The map is written read-only, its digest
recorded, and its folder hidden from every candidate's sandbox; the collection stays in the batch's
memory, inherited by each candidate's forked process. A candidate whose policy makes the map stale
runs the full baseline, and one whose forbidden plugins differ collects its base itself, as a
separate run would.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.candidates.workspace import BASE_TREE, Workspace
from lanegate.errors import LanegateError
from lanegate.lanes.flake.suite import BaseCollection, collect_base
from lanegate.lanes.property.map_build import build_map
from lanegate.lanes.property.map_file import write_map
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox

MAP_DIR = "base-coverage-map"


@dataclass(frozen=True, slots=True)
class SharedBase:
    """The base's shared work: its commit, the coverage map with its digest (None: not built) and
    the whole suite's collection (None: not made; each candidate's flake lane makes its own)."""

    commit: str
    coverage_map: Path | None = None
    map_digest: str | None = None
    collection: BaseCollection | None = None
    seconds: float = 0.0


def file_digest(path: Path) -> str:
    """`sha256:<hex>` of a file's bytes."""
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def build_shared(
    space: Workspace, base: str, *, hidden: tuple[Path, ...], coverage_map: bool = True
) -> SharedBase:
    """The base's work, in a clone of the store (nothing of any candidate in it): the whole
    suite's collection, and (with `coverage_map`) the coverage map, side by side."""
    started = time.monotonic()
    tree = space.root / BASE_TREE
    git.run_git(space.root, "clone", "-q", "--shared", "--no-checkout", str(space.store), str(tree))
    git.run_git(tree, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", base)
    policy = load_policy(tree)
    lane = policy.lane
    with (
        open_sandbox(tree, policy.sandbox, hidden=(*hidden, space.root / MAP_DIR)) as sandbox,
        ThreadPoolExecutor(max_workers=1) as pool,
    ):
        suite = pool.submit(
            collect_base,
            tree,
            lane.forbidden_pytest_plugins,
            lane.max_wall_seconds,
            sandbox=sandbox,
        )
        path = digest = None
        if coverage_map:
            path = write_map(space.root / MAP_DIR, build_map(tree, policy, sandbox=sandbox))
            os.chmod(path, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
            os.chmod(path.parent, stat.S_IRUSR | stat.S_IXUSR)
            digest = file_digest(path)
        try:
            collection: BaseCollection | None = suite.result()
        except (LanegateError, OSError):
            collection = None  # each candidate's flake lane collects the base itself, as alone
    return SharedBase(base, path, digest, collection, time.monotonic() - started)


def release(root: Path) -> None:
    """Make the map's folder writable again, so the batch's working folder can be removed."""
    folder = root / MAP_DIR
    if folder.is_dir() and not folder.is_symlink():
        os.chmod(folder, stat.S_IRWXU)
