"""What pytest collects under a root, by the project's own configuration: `python_files` and
`norecursedirs` of the first of pytest.toml, .pytest.toml, pytest.ini, .pytest.ini, pyproject.toml
(`[tool.pytest.ini_options]`), tox.ini (`[pytest]`), setup.cfg (`[tool:pytest]`) that configures pytest,
as pytest picks it. `testpaths` is read but excludes nothing: it is only where a bare `pytest` starts,
and CI names other folders outright (`pytest t/integration` from tox: a blind evaluation lost 103
true findings, an integration suite's rerun markers, when files outside `testpaths` were left out).

A Python file pytest would not collect (a linter's deliberately broken fixture, an example) is no test:
lint reads it only when a collected test module or conftest.py imports it by name (a helper module with
a home-made rerun decorator). `collect_ignore` is applied while walking (see discover).
"""

from __future__ import annotations

import configparser
import fnmatch
import re
import shlex
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from lanegate.workflow_lint.bounded_parse import TooDeep, parse_toml
from lanegate.workflow_lint.bounded_read import InputFileError, read_bounded

DEFAULT_PYTHON_FILES = ("test_*.py", "*_test.py")
DEFAULT_NORECURSEDIRS = (
    "*.egg",
    ".*",
    "_darcs",
    "build",
    "CVS",
    "dist",
    "node_modules",
    "venv",
    "{arch}",
)
_MAX_CONFIG_BYTES = 2 * 1024 * 1024
_INI_FILES = (("pytest.ini", "pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest"))
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]+\(?([\w, \t]+)|import[ \t]+([\w., \t]+))",
    re.MULTILINE,
)


@dataclass(frozen=True, slots=True)
class Collection:
    """The three settings that decide which files pytest collects."""

    testpaths: tuple[str, ...] = ()
    python_files: tuple[str, ...] = DEFAULT_PYTHON_FILES
    norecursedirs: tuple[str, ...] = DEFAULT_NORECURSEDIRS

    def _pruned(self, parts: Iterable[str]) -> bool:
        return any(fnmatch.fnmatch(part, p) for part in parts for p in self.norecursedirs)

    def collects(self, relative: str) -> bool:
        """Whether pytest collects this file as a test module or conftest.py when it is given the
        file's folder (a bare `pytest` or one naming paths)."""
        path = PurePosixPath(relative)
        if self._pruned(path.parts[:-1]):
            return False
        if path.name == "conftest.py":
            return True  # every conftest.py on the way to a folder pytest is given is loaded
        return any(
            fnmatch.fnmatch(relative if "/" in p else path.name, p) for p in self.python_files
        )


def _words(value: object) -> tuple[str, ...] | None:
    if isinstance(value, str):
        try:
            return tuple(shlex.split(value))
        except ValueError:
            return tuple(value.split())
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _from(values: dict[str, object]) -> Collection:
    found = {key: _words(values.get(key)) for key in ("testpaths", "python_files", "norecursedirs")}
    return Collection(
        found["testpaths"] or (),
        found["python_files"] or DEFAULT_PYTHON_FILES,
        found["norecursedirs"] or DEFAULT_NORECURSEDIRS,
    )


def _read(path: Path) -> str | None:
    try:
        return read_bounded(path, _MAX_CONFIG_BYTES).decode("utf-8", errors="replace")
    except InputFileError:
        return None


def _ini(text: str, section: str) -> dict[str, object] | None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except (configparser.Error, RecursionError, MemoryError):
        return None
    if not parser.has_section(section):
        return None
    return dict(parser.items(section))


def load_collection(root: Path) -> Collection:
    """The root's pytest collection settings, in pytest's order of config files; defaults when none
    configures pytest or the one that does cannot be read (lint reports that file itself)."""
    for name in ("pytest.toml", ".pytest.toml"):  # pytest 9: used even when empty
        text = _read(root / name)
        if text is not None:
            try:
                table = parse_toml(text).get("pytest", {})
            except (tomllib.TOMLDecodeError, TooDeep):
                table = {}
            return _from(table if isinstance(table, dict) else {})
    for name in ("pytest.ini", ".pytest.ini"):
        text = _read(root / name)
        if text is not None:  # used even without a [pytest] section
            return _from(_ini(text, "pytest") or {})
    text = _read(root / "pyproject.toml")
    if text is not None:
        try:
            options = parse_toml(text).get("tool", {}).get("pytest", {}).get("ini_options")
        except (tomllib.TOMLDecodeError, TooDeep, AttributeError):
            options = None
        if isinstance(options, dict):
            return _from(options)
    for name, section in _INI_FILES[1:]:
        text = _read(root / name)
        values = _ini(text, section) if text is not None else None
        if values is not None:
            return _from(values)
    return Collection()


def imported_names(texts: Iterable[str]) -> set[str]:
    """Every module and name the sources import (`import a.b`, `from a.b import c, d`, `from . import
    e`): a helper module is imported when its file stem is among them."""
    names: set[str] = set()
    for text in texts:
        for match in _IMPORT.finditer(text):
            source, imported, plain = match.groups()
            for dotted in (source or "", *(plain or "").split(",")):
                names.update(p for p in dotted.strip().split(" ")[0].split(".") if p)
            names.update(n.strip().split(" ")[0] for n in (imported or "").split(",") if n.strip())
    return names
