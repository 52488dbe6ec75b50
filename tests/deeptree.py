"""Removing a test's folder tree deeper than the recursion limit."""

from __future__ import annotations

from pathlib import Path

from lanegate.treewalk import rmtree


def remove_deep(root: Path) -> None:
    """Remove a tree deeper than the recursion limit (shutil.rmtree, and pytest's own clean-up of
    old temporary folders, recurse once per level), deepest folders first."""
    rmtree(root)
