"""Walking a tree whose depth a diff decides, without recursion.

Python 3.11's `os.walk` recurses once per folder level, so a head tree nested a thousand folders
deep (git stores it, Linux checks it out) ended the lane that walked it in a `RecursionError`. `walk`
answers what `os.walk(top)` answers (top-down, folder links listed among the folders but not walked
into, unreadable folders skipped, `dirs` pruned in place by the caller), from an explicit stack.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator
from pathlib import Path

__all__ = ["tree_bytes", "walk"]


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
