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

from lanegate import treewalk
from lanegate.errors import SandboxError
from lanegate.treewalk import tree_bytes

__all__ = ["FrozenTree", "MAX_FROZEN_FOLDERS", "stage_frozen"]

# a lane freezes a repository's test folders (a monorepo: one per package); each costs a mount and
# one above it per level, and bubblewrap's mounts cost more the more there are
MAX_FROZEN_FOLDERS = 256
DEFAULT_LIMIT = 1 << 30
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


class _Stager:
    """Copies one frozen folder into its snapshot, within a byte budget (a link copies its target,
    so links could multiply the bytes on the host)."""

    def __init__(self, repo: Path, skip: frozenset[Path], limit: int) -> None:
        self.repo = repo
        self.skip = skip
        self.limit = limit
        self.used = 0

    def _charge(self, path: str, where: str) -> None:
        self.used += os.lstat(path).st_size
        if self.used > self.limit:
            raise SandboxError(
                f"{where}: the snapshot of the frozen folders passes {self.limit} bytes "
                "(links that copy their targets count each time)"
            )

    def _readable(self, target: Path) -> bool:
        """A place in the tree the sandbox's copy shows as it is (not `.git`, a mounted
        environment or a hidden path: their bytes are not for the tests)."""
        return target.is_relative_to(self.repo) and not any(
            target.is_relative_to(s) for s in self.skip
        )

    def folder(
        self, source: Path, into: Path, rel: str, removed: frozenset[str], root: Path
    ) -> None:
        """Stage the folder `source` (tree-relative `rel`; `root`: the frozen folder's real path,
        which links into stay links) into `into`, walked without recursion (a diff controls how deep
        its test folders go)."""
        # (folder, where it goes, its tree-relative path or None inside a linked folder, where
        # `removed` does not apply, the real folders staged above it: a link back is a cycle)
        stack: list[tuple[Path, Path, str | None, frozenset[Path]]] = [
            (source, into, rel, frozenset({root}))
        ]
        while stack:
            here, staged, at, seen = stack.pop()
            staged.mkdir(parents=True, exist_ok=True)
            with os.scandir(here) as listing:
                entries = sorted(listing, key=lambda e: e.name)
            for entry in entries:
                name, path = entry.name, entry.path
                if at is not None and f"{at}/{name}" in removed:
                    continue
                where = f"{at}/{name}" if at is not None else path
                below = None if at is None else f"{at}/{name}"
                if entry.is_symlink():
                    linked = self._link(path, staged / name, root, seen, where)
                    if linked is not None:
                        stack.append((linked, staged / name, None, seen | {linked}))
                elif entry.is_dir(follow_symlinks=False):
                    if name != "__pycache__":
                        stack.append((Path(path), staged / name, below, seen))
                elif entry.is_file(follow_symlinks=False) and not name.endswith(_BYTE_CODE):
                    # a copy, never a hard link: a link changes the work tree file's inode (its
                    # link count and ctime), which the fixture lane, running beside, reads as a write
                    self._charge(path, where)
                    shutil.copy2(path, staged / name, follow_symlinks=False)
                # sockets, FIFOs and devices are not part of a test tree: left out, as the copy does

    def _link(
        self, link: str, staged: Path, root: Path, seen: frozenset[Path], where: str
    ) -> Path | None:
        """A link into the frozen folder stays a link, re-pointed from where it resolves (its own
        text could lead through a link in the writable tree that head code replaces); a link to a
        file elsewhere in the tree becomes a copy of it, and one to a folder elsewhere is answered
        for the caller to stage as a copy, which the command cannot rewrite behind the link; a link
        out of the tree, into `.git` or a hidden path, or back into a folder being staged, is left
        out."""
        target = Path(os.path.realpath(link))
        if target.is_relative_to(root):
            os.symlink(os.path.relpath(target, os.path.realpath(os.path.dirname(link))), staged)
        elif not self._readable(target) or any(
            target == s or s.is_relative_to(target) for s in seen
        ):
            return None
        elif target.is_file():
            self._charge(str(target), where)
            shutil.copy2(target, staged)
        elif target.is_dir():
            return target
        return None


def _put(source: Path, staged: Path, top: Path) -> None:
    """Replace what the snapshot `top` has at `staged` by a copy of `source`, making every folder
    on the way a real folder of the snapshot (a staged link there is replaced, never followed)."""
    current = top
    for part in staged.relative_to(top).parts[:-1]:
        current = current / part
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            current.unlink()
        current.mkdir(exist_ok=True)
    if staged.is_symlink() or staged.is_file():
        staged.unlink()
    elif staged.is_dir():
        treewalk.rmtree(staged)
    shutil.copyfile(source, staged)


def stage_frozen(
    repo: Path,
    folders: Iterable[str],
    into: Path,
    *,
    overlays: Mapping[Path, Path] | None = None,
    removed: Iterable[str] = (),
    skip: Iterable[Path] = (),
    limit: int = DEFAULT_LIMIT,
) -> FrozenTree:
    """Snapshot each of `folders` (tree-relative) of the work tree `repo` under `into` (see the
    module docstring): `overlays` (tree path -> trusted file) replace what the tree has there,
    `removed` (tree-relative) are left out. A folder that is not a real folder of the tree
    (missing, a link, or under a link), or that holds or lies in one of `skip` (absolute: paths
    the sandbox mounts or hides its own way), is not frozen: the command sees it as the copy has
    it. Past `limit` bytes staged in all (`SandboxError`), nothing is."""
    wanted = _outermost(_relative(f) for f in folders)
    if len(wanted) > MAX_FROZEN_FOLDERS:
        raise SandboxError(
            f"{len(wanted)} folders to freeze, over the {MAX_FROZEN_FOLDERS} a command takes"
        )
    gone = frozenset(_relative(p) for p in removed)
    hidden = frozenset(skip)
    real_repo = Path(os.path.realpath(repo))
    stager = _Stager(real_repo, frozenset(Path(os.path.realpath(p)) for p in hidden), limit)
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
        real = real_repo / folder
        stager.folder(real, target, folder, gone, real)
        for dest, source in (overlays or {}).items():
            rel = PurePosixPath(os.path.relpath(os.path.normpath(dest), repo).replace(os.sep, "/"))
            if rel.parts[:1] != ("..",) and rel.is_relative_to(folder):
                _put(source, target / rel.relative_to(folder), target)
        snapshots[folder] = target
        for depth in range(1, len(parts)):
            above = "/".join(parts[:depth])
            if above not in pinned:
                pinned[above] = tree_bytes(repo / above)
    ordered = sorted(pinned.items(), key=lambda item: (len(PurePosixPath(item[0]).parts), item[0]))
    return FrozenTree(snapshots, tuple(ordered))
