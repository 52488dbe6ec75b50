"""Removing a test's folder tree deeper than the recursion limit."""

from __future__ import annotations

import os
from pathlib import Path

from lanegate.treewalk import walk


def remove_deep(root: Path) -> None:
    """Remove a tree deeper than the recursion limit (shutil.rmtree, and pytest's own clean-up of
    old temporary folders, recurse once per level), deepest folders first."""
    folders = [folder for folder, _dirs, _files in walk(root)]
    for folder in reversed(folders):
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            if os.path.islink(path) or not os.path.isdir(path):
                os.unlink(path)
        os.rmdir(folder)
