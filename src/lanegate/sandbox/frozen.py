"""Folders of the tree that a sandboxed command sees but cannot change: a read-only snapshot of each,
mounted at its place, with every folder above it pinned.

The base suite's process runs the base's tests against head code, which may write the sandbox's copy
of the tree. Verifying the Python files it imports (`lanes/property/protected`) leaves the rest of a
test folder open: an expected output a base test compares with could be rewritten before the test
reads it. A frozen folder closes that: the lane stages a snapshot of it outside the sandbox (copies
of the work tree's files, never hard links, which would change their inodes; the command's overlays
put in; a link to a file elsewhere in the tree copied in its place; its removed paths, byte code,
links to folders elsewhere and links out of the tree left out), bubblewrap mounts the
snapshot read-only at the folder's path, and every folder between it and the tree's root is a mount
point of its own (a small tmpfs the copy fills as it fills the tree). The kernel then refuses every
way to change what the path shows: a write or `chmod` inside is EROFS, and renaming or removing the
folder, or any folder above it, is EBUSY (a folder that merely holds a mount point could be renamed
and a new one made in its place). Head code has no capability to unmount. New files can still be
made in the pinned folders above, not in the frozen one.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lanegate.errors import SandboxError

__all__ = ["FrozenTree", "MAX_FROZEN_FOLDERS", "stage_frozen"]

# a lane freezes a repository's few test folders; each costs a mount and one above it per level
MAX_FROZEN_FOLDERS = 64
_BYTE_CODE = (".pyc", ".pyo")


@dataclass(frozen=True, slots=True)
class FrozenTree:
    """The snapshots to mount (tree-relative POSIX folder -> staged folder) and the folders above
    them to pin, parents first (each with the bytes its subtree holds, for its tmpfs's size)."""

    snapshots: dict[str, Path]
    pinned: tuple[tuple[str, int], ...]


def _relative(folder: str) -> str:
    pure = PurePosixPath(folder)
    if pure.is_absolute() or ".." in pure.parts or not pure.parts or folder in ("", "."):
        raise SandboxError(f"frozen folder {folder!r} is not a folder inside the tree")
    return pure.as_posix()


def _outermost(folders: Iterable[str]) -> list[str]:
    """The folders without the ones inside another (freezing `tests` freezes `tests/data`)."""
    kept: list[str] = []
    for folder in sorted(set(folders), key=lambda f: (len(PurePosixPath(f).parts), f)):
        if not any(PurePosixPath(folder).is_relative_to(k) for k in kept):
            kept.append(folder)
    return kept


def _subtree_bytes(root: Path) -> int:
    total = 0
    for folder, _dirs, files in os.walk(root):
        for name in files:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total


def _relink(link: str, staged: Path, repo: Path, folder: Path) -> None:
    """Stage a link of the folder: kept when it leads into the folder itself (read-only, like the
    rest); a link to a regular file elsewhere in the tree becomes a copy of that file, which the
    command cannot rewrite behind the link; a link to a folder elsewhere, or out of the tree, is left
    out (the sandbox's copy drops links out of the tree too)."""
    target = Path(os.path.realpath(link))
    if target.is_relative_to(folder):
        # re-pointed from where it resolves, never by its own text: `../x/tests/data` through a
        # link `x` in the writable tree could be made to lead somewhere else inside the sandbox
        os.symlink(os.path.relpath(target, os.path.realpath(os.path.dirname(link))), staged)
    elif target.is_relative_to(repo) and target.is_file():
        shutil.copy2(target, staged)


def _snapshot(repo: Path, folder: str, into: Path, removed: frozenset[str]) -> None:
    """Stage the work tree's `folder` as the sandbox's copy would show it."""
    source_root = repo / folder
    real_root = Path(os.path.realpath(source_root))
    real_repo = Path(os.path.realpath(repo))
    for current, dirs, files in os.walk(source_root):
        rel = os.path.relpath(current, repo).replace(os.sep, "/")
        here = into / os.path.relpath(current, source_root)
        here.mkdir(parents=True, exist_ok=True)

        def left_out(name: str, rel: str = rel) -> bool:
            return f"{rel}/{name}" in removed

        entered = []
        for name in dirs:
            path = os.path.join(current, name)
            if name == "__pycache__" or left_out(name):
                continue
            if os.path.islink(path):
                _relink(path, here / name, real_repo, real_root)
            else:
                entered.append(name)
        dirs[:] = entered
        for name in files:
            path = os.path.join(current, name)
            if name.endswith(_BYTE_CODE) or left_out(name):
                continue
            if os.path.islink(path):
                _relink(path, here / name, real_repo, real_root)
            elif os.path.isfile(path):
                # a copy, never a hard link: a link changes the work tree file's inode (its link
                # count and ctime), which the fixture lane, running beside, reads as a write
                shutil.copy2(path, here / name, follow_symlinks=False)
            # sockets, FIFOs and devices are not part of a test tree: left out, as the copy does


def _put(source: Path, staged: Path) -> None:
    """Replace what the snapshot has at `staged` by a copy of `source`."""
    staged.parent.mkdir(parents=True, exist_ok=True)
    if staged.is_symlink() or staged.is_file():
        staged.unlink()
    elif staged.is_dir():
        shutil.rmtree(staged)
    shutil.copyfile(source, staged)


def stage_frozen(
    repo: Path,
    folders: Iterable[str],
    into: Path,
    *,
    overlays: Mapping[Path, Path] | None = None,
    removed: Iterable[str] = (),
    skip: Iterable[Path] = (),
) -> FrozenTree:
    """Snapshot each of `folders` (tree-relative) of the work tree `repo` under `into` (see the
    module docstring): `overlays` (tree path -> trusted file) replace what the tree has there,
    `removed` (tree-relative) are left out. A folder that is not a real folder of the tree
    (missing, a link, or under a link), or that holds or lies in one of `skip` (absolute: paths
    the sandbox mounts or hides its own way), is not frozen: the command sees it as the copy has
    it."""
    wanted = _outermost(_relative(f) for f in folders)
    if len(wanted) > MAX_FROZEN_FOLDERS:
        raise SandboxError(
            f"{len(wanted)} folders to freeze, over the {MAX_FROZEN_FOLDERS} a command takes"
        )
    gone = frozenset(_relative(p) for p in removed)
    hidden = frozenset(skip)
    snapshots: dict[str, Path] = {}
    pinned: dict[str, int] = {}
    for index, folder in enumerate(wanted):
        parts = PurePosixPath(folder).parts
        chain = [repo.joinpath(*parts[: i + 1]) for i in range(len(parts))]
        if any(p.is_symlink() or not p.is_dir() for p in chain) or folder in gone:
            continue
        if any(chain[-1].is_relative_to(h) or h.is_relative_to(chain[-1]) for h in hidden):
            continue  # a path the sandbox mounts or hides in its own way: left to it
        target = into / f"frozen-{index:03d}"
        _snapshot(repo, folder, target, gone)
        for dest, source in (overlays or {}).items():
            rel = PurePosixPath(os.path.relpath(os.path.normpath(dest), repo).replace(os.sep, "/"))
            if rel.parts[:1] != ("..",) and rel.is_relative_to(folder):
                _put(source, target / rel.relative_to(folder))
        snapshots[folder] = target
        for depth in range(1, len(parts)):
            above = "/".join(parts[:depth])
            if above not in pinned:
                pinned[above] = _subtree_bytes(repo / above)
    ordered = sorted(pinned.items(), key=lambda item: (len(PurePosixPath(item[0]).parts), item[0]))
    return FrozenTree(snapshots, tuple(ordered))
