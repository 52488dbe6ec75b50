"""Walking a tree whose depth a diff decides, without recursion.

Python 3.11's `os.walk` recurses once per folder level, so a head tree nested a thousand folders
deep (git stores it, Linux checks it out) ended the lane that walked it in a `RecursionError`. `walk`
answers what `os.walk(top)` answers (top-down, folder links listed among the folders but not walked
into, unreadable folders skipped, `dirs` pruned in place by the caller), from an explicit stack.
`makedirs` and `rmtree` do the same for `os.makedirs` (one call per missing level) and
`shutil.rmtree` (one call per level in 3.11): a link is removed, never followed, and a read-only
folder (a fixture copy) is made writable before its entries go.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterator
from pathlib import Path

__all__ = ["makedirs", "rmtree", "tree_bytes", "walk"]


def walk(top: str | Path) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(top)` without recursion (see the module docstring); folders in depth-first order."""
    stack = [os.fspath(top)]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue
        dirs: list[str] = []
        files: list[str] = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            (dirs if is_dir else files).append(entry.name)
        yield folder, dirs, files
        for name in reversed(dirs):
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                stack.append(path)


def tree_bytes(root: str | Path, skip: Collection[Path] = ()) -> int:
    """The bytes of the files under `root` (a link counts its own size), leaving out the folders
    in `skip` (absolute paths) and what lies below them."""
    total = 0
    for folder, dirs, files in walk(root):
        here = Path(folder)
        dirs[:] = [d for d in dirs if here / d not in skip]
        for name in files:
            try:
                total += os.lstat(here / name).st_size
            except OSError:
                continue
    return total


def makedirs(path: str | Path) -> None:
    """`os.makedirs(path, exist_ok=True)` without recursion: the missing folders, top down."""
    missing: list[str] = []
    here = os.path.abspath(path)
    while not os.path.isdir(here):
        missing.append(here)
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder)
        except FileExistsError:
            if not os.path.isdir(folder):
                raise


def rmtree(root: str | Path, *, ignore_errors: bool = False) -> None:
    """`shutil.rmtree(root)` without recursion: files and links first, then the folders deepest
    first; a link (to a folder or anywhere outside) is unlinked, never followed. A missing `root`
    is nothing to do; with `ignore_errors`, what cannot be removed stays."""
    top = os.fspath(root)
    if os.path.islink(top) or not os.path.isdir(top):
        if os.path.lexists(top):
            _quietly(os.unlink, top, ignore_errors)
        return
    folders: list[str] = []
    stack = [top]
    while stack:
        folder = stack.pop()
        _quietly(os.chmod, folder, True, 0o700)  # a read-only copy: its entries may go now
        folders.append(folder)
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            if not ignore_errors:
                raise
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir:
                stack.append(entry.path)
            else:
                _quietly(os.unlink, entry.path, ignore_errors)
    for folder in reversed(folders):
        _quietly(os.rmdir, folder, ignore_errors)


def _quietly(action: Callable[..., None], path: str, ignore_errors: bool, *args: int) -> None:
    try:
        action(path, *args)
    except FileNotFoundError:
        pass
    except OSError:
        if not ignore_errors:
            raise
