"""Where a sandbox's own files outside itself are written: a RAM-backed folder when it has room.

What a sandbox is shown from outside (its setup specs, the sanitized git config, the snapshots of
its frozen folders) is written by the lane, mounted read-only and removed when the sandbox closes.
On a disk file system every new file costs an inode allocation and a journal entry: on the
measuring machine's ext4 the snapshot of a 100-file test folder took 80 ms of CPU, against 7 ms on
tmpfs, on the property lane's critical path. So the sandbox's folder goes to `/dev/shm` when that
is a writable folder with room for this tree many times over, and the tree is small; elsewhere (a
large tree, no `/dev/shm`, a full one, or `TMPDIR` set by the user, who chose where temporary files
go) it goes to the temporary folder as before. In RAM the snapshots' byte budget is tighter
(`ram_budget`), so that links copying their targets cannot turn a diff into memory pressure.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "MAX_RAM_TREE",
    "RAM_FOLDER",
    "StagingPlace",
    "choose_place",
    "make_private_folder",
    "ram_budget",
    "staging_place",
]

RAM_FOLDER = Path("/dev/shm")  # noqa: S108 - a known tmpfs on Linux, used only when writable
MAX_RAM_TREE = 64 * 1024 * 1024  # a tree larger than this stages its snapshots on disk
ROOM_FACTOR = 8  # the RAM folder must have this many times the RAM budget free
RAM_SLACK = 16 * 1024 * 1024  # over the tree's own bytes, what the RAM budget allows


@dataclass(frozen=True, slots=True)
class StagingPlace:
    """The folder to make a sandbox's private folder in (None: the temporary folder) and the byte
    budget its frozen snapshots get there."""

    parent: Path | None
    budget: int


def ram_budget(tree_bytes: int) -> int:
    """The snapshot bytes a tree of `tree_bytes` may stage in RAM: all of it twice, and some."""
    return 2 * tree_bytes + RAM_SLACK


def choose_place(
    tree_bytes: int, disk_budget: int, ram: Path, ram_free: int | None, tmpdir_set: bool
) -> StagingPlace:
    """The decision of `staging_place`, given what it found: `ram_free` is None when `ram` is not
    a folder lanegate can write."""
    budget = min(disk_budget, ram_budget(tree_bytes))
    if (
        tmpdir_set
        or tree_bytes > MAX_RAM_TREE
        or ram_free is None
        or ram_free < ROOM_FACTOR * budget
    ):
        return StagingPlace(None, disk_budget)
    return StagingPlace(ram, budget)


def staging_place(tree_bytes: int, disk_budget: int, ram: Path = RAM_FOLDER) -> StagingPlace:
    """Where a sandbox over a tree of `tree_bytes` stages (see the module docstring); on disk the
    snapshots keep `disk_budget`."""
    free: int | None = None
    try:
        if ram.is_dir() and os.access(ram, os.W_OK | os.X_OK):
            stats = os.statvfs(ram)
            free = stats.f_bavail * stats.f_frsize
    except OSError:
        free = None
    return choose_place(tree_bytes, disk_budget, ram, free, bool(os.environ.get("TMPDIR")))


def make_private_folder(place: StagingPlace) -> Path:
    """A new private folder for one sandbox at `place` (the temporary folder when the RAM folder
    refuses it at the last moment)."""
    if place.parent is not None:
        try:
            return Path(tempfile.mkdtemp(prefix="lanegate-sandbox-spec-", dir=place.parent))
        except OSError:
            pass
    return Path(tempfile.mkdtemp(prefix="lanegate-sandbox-spec-"))
