"""Byte code of lanegate's own modules, written outside the sandbox before its processes start.

Inside the sandbox the whole file system is read-only, so a lanegate module imported only there (the
flake lane's plugin and what it imports, the property lane's recorders) is compiled from its source in
every process that imports it, and its byte code is never cached: about 25 ms of CPU a replay. The
GitHub action puts lanegate's sources on the path through a `.pth` file, which no install step
byte-compiles. So before a sandbox opens, `warm()` compiles lanegate's package where its byte code is
missing or stale, as an import outside the sandbox would have; when it is up to date that is a `stat`
a file. It writes only beside lanegate's own sources (never in the repository under test, whose byte
code the sandbox never copies), and does nothing when byte code writing is off
(`PYTHONDONTWRITEBYTECODE`, `-B`) or the package is read-only.
"""

from __future__ import annotations

import compileall
import sys
import threading
from pathlib import Path

import lanegate

_lock = threading.Lock()
_warmed = False


def compile_package(root: Path) -> bool:
    """Compile every module under `root` whose byte code is missing or stale (timestamp checked, as
    imports check it); False when some module could not be compiled or written, or `root` is not
    a folder."""
    if not root.is_dir():
        return False
    try:
        return bool(compileall.compile_dir(str(root), quiet=2))
    except (OSError, ValueError):
        return False


def warm() -> None:
    """Once per process, unless byte code writing is off: `compile_package` on lanegate's own
    package."""
    global _warmed
    with _lock:
        if _warmed or sys.dont_write_bytecode:
            return
        _warmed = True
        compile_package(Path(lanegate.__file__).resolve().parent)
