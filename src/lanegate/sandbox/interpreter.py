"""The interpreter the tests run with: lanegate's own, or a separate tests venv run only sandboxed.

Locally, `lanegate run` and the lanes run the tests with lanegate's own interpreter: the user
installed that environment. On GitHub the action installs the tests' dependencies (and so runs the
head's build backend) inside the sandbox, into a venv of its own (`lanegate.install`), and names it
in `LANEGATE_TESTS_PYTHON`. That venv holds whatever the head's build put there (a `.pth`, a
rewritten module), so lanegate never starts or imports it outside the sandbox; reading its
distributions' metadata files as data (`site_packages`) executes nothing.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from lanegate.errors import SandboxError

TESTS_PYTHON_ENV = "LANEGATE_TESTS_PYTHON"
MAX_METADATA_BYTES = 1024 * 1024
UNREADABLE = "<unreadable>"


@dataclass(frozen=True, slots=True)
class InstalledDistribution:
    """One distribution of the tests venv, as its metadata files say (head-written data)."""

    name: str
    version: str
    editable: bool
    pytest_plugin: bool  # declares a `pytest11` entry point: pytest loads it in every test run


@dataclass(frozen=True, slots=True)
class SandboxInterpreter:
    """The `python` of every sandboxed test command, and its venv when it is not lanegate's own."""

    executable: str
    venv: Path | None = None

    @property
    def separate(self) -> bool:
        """True when the tests run in their own venv (which runs only inside the sandbox)."""
        return self.venv is not None

    def site_packages(self) -> list[Path]:
        """Where its distributions live, to read as data (never to import from)."""
        if self.venv is None:
            return []
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        return [p for p in (self.venv / "lib" / version / "site-packages",) if p.is_dir()]

    def distributions(self) -> list[InstalledDistribution]:
        """Every `*.dist-info` of its site-packages, read as bounded data: no link followed, no
        FIFO waited on, no file past `MAX_METADATA_BYTES`; what cannot be read says `<unreadable>`."""
        found = []
        for folder in self.site_packages():
            for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                if not entry.name.endswith(".dist-info") or not entry.is_dir(follow_symlinks=False):
                    continue
                path = Path(entry.path)
                name, version = _name_and_version(_read_small(path / "METADATA"))
                points = (_read_small(path / "entry_points.txt") or b"").decode("utf-8", "replace")
                plugin = any(line.strip() == "[pytest11]" for line in points.splitlines())
                found.append(InstalledDistribution(name, version, _is_editable(path), plugin))
        return found


def _read_small(path: Path) -> bytes | None:
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK
    try:
        with open(path, "rb", opener=lambda p, _: os.open(p, flags)) as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            data = handle.read(MAX_METADATA_BYTES + 1)
    except OSError:
        return None
    return data if len(data) <= MAX_METADATA_BYTES else None


def _name_and_version(data: bytes | None) -> tuple[str, str]:
    fields: dict[str, str] = {}
    for line in (data or b"").decode("utf-8", "replace").splitlines():
        if not line.strip():
            break  # the headers end at the first blank line
        key, sep, value = line.partition(":")
        if sep and key in ("Name", "Version"):
            fields.setdefault(key, value.strip())
    return fields.get("Name", UNREADABLE), fields.get("Version", UNREADABLE)


def _is_editable(dist_info: Path) -> bool:
    try:
        data = json.loads(_read_small(dist_info / "direct_url.json") or b"{}")
    except ValueError:
        return False
    info = data.get("dir_info") if isinstance(data, dict) else None
    return isinstance(info, dict) and info.get("editable") is True


def venv_python(venv: Path) -> Path:
    """The interpreter of the venv at `venv` (its path inside the venv, never resolved: a venv is
    recognised by the path it was started as)."""
    return venv / "bin" / "python"


def sandbox_interpreter() -> SandboxInterpreter:
    """The interpreter the tests run with: `LANEGATE_TESTS_PYTHON` when set (a venv made by
    `lanegate install`), else lanegate's own. Raises `SandboxError` on a value that is not one."""
    value = os.environ.get(TESTS_PYTHON_ENV, "")
    if not value:
        return SandboxInterpreter(sys.executable)
    path = Path(value)
    where = f"{TESTS_PYTHON_ENV}={value!r}"
    if not path.is_absolute():
        raise SandboxError(f"{where}: not an absolute path")
    venv = path.parent.parent
    if path != venv_python(venv) or not (venv / "pyvenv.cfg").is_file():
        raise SandboxError(
            f"{where}: not the bin/python of a venv (no pyvenv.cfg)",
            hint="give the tests-python that `lanegate install` printed",
        )
    if not os.path.lexists(path):
        raise SandboxError(f"{where}: no such file")
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    if not (venv / "lib" / f"python{version}").is_dir():
        raise SandboxError(f"{where}: not a Python {version} venv, which lanegate runs on")
    return SandboxInterpreter(str(path), venv)


def sandbox_python() -> str:
    """The argv[0] of every sandboxed Python command that runs the tests or head code."""
    return sandbox_interpreter().executable
