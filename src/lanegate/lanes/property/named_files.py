"""The files a lane test process was asked to collect, so that their siblings are left alone.

pytest collects a file argument by listing its folder: every sibling that matches `python_files`
becomes a module node (not imported) before the session keeps the one asked for. A selected run of
one file in a folder of a thousand test modules paid for all of them, and so did every mutant's
child, once per mutant. When every argument names a file (a path, or a node id in one), a sibling
`.py` file that no argument names is never collected past that node: leaving it out changes the
time only. Nothing is left out when an argument names a folder, a module (`--pyargs`) or nothing
that exists, and never a folder, a `conftest.py` or an `__init__.py` (what collecting the named
files reads).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

# what collecting a named file can read beside it: never left out
_KEPT_NAMES = frozenset({"conftest.py", "__init__.py"})


def named_files(args: Sequence[str], here: Path, *, pyargs: bool) -> frozenset[str] | None:
    """The absolute paths of the files `args` name (None: some argument names no file)."""
    if pyargs or not args:
        return None
    named: set[str] = set()
    for arg in args:
        path = os.path.abspath(here / arg.split("::", 1)[0])  # as pytest makes an argument's path
        if not os.path.isfile(path):
            return None
        named.add(path)
    return frozenset(named)


def unnamed_sibling(path: str, named: frozenset[str] | None) -> bool:
    """Whether `path` (absolute, as pytest collects it) is a Python file no argument named."""
    if named is None or path in named:
        return False
    name = os.path.basename(path)
    return name.endswith(".py") and name not in _KEPT_NAMES and os.path.isfile(path)
