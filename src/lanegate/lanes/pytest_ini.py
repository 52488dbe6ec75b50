"""The repository's pytest ini options at a commit, found with pytest's own file precedence
(`pytest.toml`, `.pytest.toml`, `pytest.ini`, `.pytest.ini`, `pyproject.toml`, `tox.ini`,
`setup.cfg`, each at the repository root), and the test-file patterns they imply."""

from __future__ import annotations

import configparser
import tomllib
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

from lanegate import git, tomltext

DEFAULT_PYTHON_FILES = ("test_*.py", "*_test.py")


@dataclass(frozen=True, slots=True)
class PytestIni:
    """The ini options of the first pytest config file (empty when there is none, or none parses)."""

    source: str
    options: dict[str, str | list[str]]

    def words(self, key: str) -> tuple[str, ...]:
        """A whitespace-separated (or TOML list) option as words; () when unset."""
        value = self.options.get(key)
        if value is None:
            return ()
        if isinstance(value, list):
            return tuple(str(v) for v in value)
        return tuple(value.split())

    @property
    def python_files(self) -> tuple[str, ...]:
        """The `python_files` patterns, pytest's defaults when unset."""
        return self.words("python_files") or DEFAULT_PYTHON_FILES

    def collects(self, path: str) -> bool:
        """True when pytest's recursion would collect this repo-relative file as a test module."""
        if not path.endswith(".py") or PurePosixPath(path).name == "conftest.py":
            return False
        name = PurePosixPath(path).name
        return any(fnmatch(path if "/" in p else name, p) for p in self.python_files)


def _ini(text: str, section: str) -> dict[str, str | list[str]] | None:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if not parser.has_section(section):
        return None
    return dict(parser.items(section))


def _toml(text: str, pyproject: bool) -> dict[str, str | list[str]] | None:
    try:
        data = tomltext.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    if pyproject:
        tool = data.get("tool", {})
        pytest = tool.get("pytest", {}) if isinstance(tool, dict) else {}
        table = pytest.get("ini_options", pytest) if isinstance(pytest, dict) else None
    else:
        table = data.get("pytest", data)
    if not isinstance(table, dict) or (pyproject and not table):
        return None
    return {k: v if isinstance(v, list) else str(v) for k, v in table.items()}


_FILES = (
    ("pytest.toml", "toml"),
    (".pytest.toml", "toml"),
    ("pytest.ini", "ini"),
    (".pytest.ini", "ini"),
    ("pyproject.toml", "pyproject"),
    ("tox.ini", "pytest"),
    ("setup.cfg", "tool:pytest"),
)


def _parse(kind: str, text: str) -> dict[str, str | list[str]] | None:
    if kind == "toml":
        return _toml(text, False)
    if kind == "pyproject":
        return _toml(text, True)
    if kind == "ini":  # pytest.ini is the config file even without a [pytest] section
        return _ini(text, "pytest") or {}
    return _ini(text, kind)


def read(repo: Path, commit: str) -> PytestIni:
    """The pytest options at `commit` (pytest's precedence; the first file holding them wins)."""
    git.prefetch_files(repo, ((commit, name) for name, _ in _FILES))
    for name, kind in _FILES:
        raw = git.show_file(repo, commit, name)
        if raw is None:
            continue
        options = _parse(kind, raw.decode("utf-8", "replace"))
        if options is not None:
            return PytestIni(name, options)
    return PytestIni("", {})
