"""Why pytest could not collect a test file, in one line, and a fix for an import the sandbox lacks.

The lanes' plugins record the exception line of each failed collector (`error_line`, run inside the
sandboxed test process); the lanes add the fix (`import_hint`, run by lanegate on the host). The
usual cause on a developer's machine is a dependency installed editable from a folder outside the
repository: lanegate's own interpreter finds it, the sandbox, which shows the repository and the
interpreter's installed packages only, does not.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

_MAX = 300
_MISSING = re.compile(r"No module named '([\w.]+)'")


def error_line(report_text: str) -> str:
    """The exception line of a failed collector's report (`ModuleNotFoundError: No module named
    'x'`): pytest's last `E ` line, else the report's last line, bounded."""
    lines = [ln for ln in report_text.splitlines() if ln.strip()]
    marked = [ln[1:].strip() for ln in lines if ln.startswith("E ")]
    chosen = marked[-1] if marked else (lines[-1].strip() if lines else "")
    return chosen[:_MAX]


def import_hint(detail: str, repo: Path) -> str:
    """A fix for a `No module named 'x'` in `detail` ("" for any other error): where lanegate's
    interpreter finds `x` when that is outside the repository, or that it is not installed."""
    found = _MISSING.search(detail)
    if found is None:
        return ""
    top = found.group(1).split(".", 1)[0]
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return (
            f"{top} is not installed where the tests run: add it to the project's dependencies "
            "and install them before lanegate runs"
        )
    origins = [spec.origin] if spec.origin else list(spec.submodule_search_locations or [])
    where = next((Path(o) for o in origins if o and not _inside(Path(o), repo)), None)
    if where is None:
        return ""
    if where.name == "__init__.py":  # a package: its folder
        where = where.parent
    return (
        f"{top} is installed from {where}, outside the repository, which the sandbox does not "
        "show (an editable install of a folder kept elsewhere): install it without -e "
        "(`pip install <its folder>`), or make it a dependency the environment installs"
    )


def _inside(path: Path, repo: Path) -> bool:
    try:
        path.resolve().relative_to(repo.resolve())
    except (ValueError, OSError):
        return False
    return True
