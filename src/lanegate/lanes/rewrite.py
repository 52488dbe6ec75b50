"""Installed plugins off pytest's assertion-rewrite list, in every lane's test processes.

pytest rewrites the asserts of every module of a distribution with a `pytest11` entry point
(Hypothesis, pytest-xdist, pytest-cov, platformdirs, ...) and of every `-p` plugin, and in the
sandbox (read-only site-packages, no byte code written) it cannot cache the result: every test
process parsed and recompiled them all (Hypothesis alone was about a second of a process's
start-up). A rewritten assert only words its failure message differently, so no outcome changes.
Only modules that live outside the repository are taken off: the repository's test modules,
conftest files and plugins (an editable install's included) keep their rewriting.

Both lane plugins call `unmark_rewrite` from `pytest_addhooks`, the earliest hook a `-p` plugin gets:
after pytest marked the plugin distributions, before any entry-point plugin is imported.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from pathlib import Path
from typing import Any


def unmark_rewrite(pluginmanager: Any) -> tuple[str, ...]:
    """Take the installed plugins' modules off pytest's assertion-rewrite list; the names taken off."""
    hook = getattr(pluginmanager, "rewrite_hook", None)
    marked = getattr(hook, "_must_rewrite", None)
    if not isinstance(marked, set):
        return ()
    config = getattr(hook, "config", None)
    roots = {Path.cwd().resolve()}
    rootpath = getattr(config, "rootpath", None)
    if isinstance(rootpath, Path):
        roots.add(rootpath.resolve())
    taken = tuple(sorted(n for n in marked if _installed_outside(n, roots)))
    marked.difference_update(taken)
    cache = getattr(hook, "_marked_for_rewrite_cache", None)
    if isinstance(cache, dict):
        cache.clear()
    return taken


def _installed_outside(name: str, roots: set[Path]) -> bool:
    """True when module `name` is found, without importing anything, in a file outside every one
    of `roots` (the repository); a name that cannot be placed keeps its rewriting. Only the path
    finder is asked: a meta-path finder may act on being asked (the flake plugin's one-shot hook on
    `hypothesis` would be spent, and the replays' Hypothesis profile never loaded)."""
    module = sys.modules.get(name)
    origin = getattr(module, "__file__", None) if module is not None else None
    if module is None and "." not in name:
        try:
            spec = importlib.machinery.PathFinder.find_spec(name)
        except (ImportError, ValueError):
            return False
        origin = None if spec is None else spec.origin
    if not isinstance(origin, str) or not os.path.isabs(origin):
        return False
    where = Path(origin).resolve()
    return not any(where.is_relative_to(root) for root in roots)
