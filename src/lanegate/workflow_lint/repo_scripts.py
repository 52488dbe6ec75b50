"""Which scripts of the repository a shell script runs (`./scripts/ci.sh`, `bash tools/test.sh`,
`python ci/run.py`), as root-relative paths; lanegate lints them with the same shell analysis."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from lanegate.workflow_lint.shell import Command, ShellScript, argv

_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "source", "."})
_PYTHONS = frozenset({"python", "python3", "py"})


def _relative(value: str) -> str | None:
    """A root-relative path for a script reference, or None when it is not a repository path. A path
    with an expression or a variable in it (`./scripts/${{ matrix.suite }}.sh`) is kept as written:
    no such file exists, so its callers treat it as a script lanegate cannot read (fail closed)."""
    if not value or value.startswith(("/", "~", "-", "$")):
        return None
    path = posixpath.normpath(value)
    if path.startswith("../") or path == "..":
        return None
    return path


def script_run_by(command: Command) -> tuple[str, str] | None:
    """(reference as written, root-relative path) when the command runs a repository script."""
    args = argv(command)
    if not args:
        return None
    head = args[0].value
    base = head.rsplit("/", 1)[-1]
    reference = ""
    if base in _SHELLS or base in _PYTHONS or base.startswith("python3."):
        rest = [w.value for w in args[1:]]
        if rest and not rest[0].startswith("-") and (base in _SHELLS or rest[0].endswith(".py")):
            reference = rest[0]
    elif "/" in head and not head.startswith("/"):
        reference = head
    path = _relative(reference)
    return None if path is None else (reference, path)


def scripts_run_by(script: ShellScript) -> Iterator[tuple[str, str]]:
    """Every repository script the commands of `script` run."""
    for command in script.commands:
        found = script_run_by(command)
        if found is not None:
            yield found


def in_directory(path: str, directory: str | None) -> str:
    """`path` as run from `directory` (a step's working directory), relative to the root; a folder
    lanegate cannot evaluate (None) keeps an expression in the path, so no such file is found and
    the script counts as one lanegate cannot read (fail closed)."""
    if directory is None:
        return posixpath.join("${{ working-directory }}", path)
    if not directory or directory == ".":
        return path
    return posixpath.normpath(posixpath.join(directory, path))
