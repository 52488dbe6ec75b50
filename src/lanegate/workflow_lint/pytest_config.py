"""Positioned views of pytest and packaging config: INI files (pytest.ini, setup.cfg, tox.ini),
pyproject.toml entries, requirements lines and Python test modules.

The standard parsers (configparser, tomllib) lose line numbers, so entries are read line by line here;
the session still parses pyproject.toml with tomllib first, so a file that is not TOML is a finding.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PYTEST_SECTIONS = frozenset({"pytest", "tool:pytest"})
PYTEST_TOML_TABLES = frozenset({"tool.pytest.ini_options", "tool.pytest"})
# ini keys of rerun plugins: pytest-rerunfailures (reruns, reruns_delay), pytest-retry (retries, ...)
RERUN_INI_KEYS = frozenset(
    {
        "reruns",
        "reruns_delay",
        "only_rerun",
        "rerun_except",
        "retries",
        "retry_delay",
        "cumulative_timing",
        "force_flaky",
        "max_runs",
        "min_passes",
    }
)


@dataclass(frozen=True, slots=True)
class ValueLine:
    """One line of a config value: 1-based line, 1-based column where `text` starts."""

    line: int
    column: int
    text: str


@dataclass(slots=True)
class IniEntry:
    """`key = value` in an INI section, with continuation lines."""

    section: str
    key: str
    line: int
    column: int
    values: list[ValueLine] = field(default_factory=list)


_SECTION = re.compile(r"^\s*\[([^\]]+)\]")
_INI_KEY = re.compile(r"^([A-Za-z0-9_.\-]+)\s*[=:]\s?(.*)$")


def ini_entries(lines: list[str]) -> list[IniEntry]:
    """Every key of an INI file in file order (comments skipped, continuation lines joined)."""
    entries: list[IniEntry] = []
    section = ""
    current: IniEntry | None = None
    for number, text in enumerate(lines, start=1):
        stripped = text.strip()
        if not stripped or stripped[0] in "#;":
            continue
        if text[0] in " \t":
            if current is not None:
                current.values.append(
                    ValueLine(number, len(text) - len(text.lstrip()) + 1, stripped)
                )
            continue
        match = _SECTION.match(text)
        if match:
            section = match.group(1).strip()
            current = None
            continue
        match = _INI_KEY.match(text)
        if match is None:
            current = None
            continue
        current = IniEntry(section, match.group(1).strip(), number, 1)
        value = match.group(2)
        if value.strip():
            current.values.append(
                ValueLine(
                    number, match.start(2) + 1 + (len(value) - len(value.lstrip())), value.strip()
                )
            )
        entries.append(current)
    return entries


@dataclass(slots=True)
class TomlEntry:
    """`key = value` in pyproject.toml: full dotted name, position, and every string literal in it."""

    table: str
    key: str
    line: int
    column: int
    strings: list[ValueLine] = field(default_factory=list)

    @property
    def dotted(self) -> str:
        return f"{self.table}.{self.key}" if self.table else self.key


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_TOML_KEY = re.compile(
    r"^\s*((?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*'))*)\s*=\s*"
)
_STRING = re.compile(r"\"((?:[^\"\\]|\\.)*)\"|'([^']*)'")


def _dotted(name: str) -> str:
    parts = re.findall(r"\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_\-]+)", name)
    return ".".join(a or b or c for a, b, c in parts)


def toml_entries(lines: list[str]) -> list[TomlEntry]:
    """Every `key = value` of a TOML file with its string literals (multi-line arrays and strings too)."""
    entries: list[TomlEntry] = []
    table = ""
    current: TomlEntry | None = None
    depth = 0
    triple = ""
    for number, text in enumerate(lines, start=1):
        if triple:
            end = text.find(triple)
            body = text if end < 0 else text[:end]
            if current is not None and body.strip():
                current.strings.append(
                    ValueLine(number, len(body) - len(body.lstrip()) + 1, body.strip())
                )
            if end >= 0:
                triple = ""
                rest = text[end + 3 :]
                depth += _depth_change(rest)
            continue
        if depth <= 0:
            header = _HEADER.match(text)
            if header:
                table = _dotted(header.group(1))
                current = None
                depth = 0
                continue
            key = _TOML_KEY.match(text)
            if key is None:
                continue
            current = TomlEntry(table, _dotted(key.group(1)), number, key.start(1) + 1)
            entries.append(current)
            rest_start = key.end()
        else:
            rest_start = 0
        if current is None:
            continue
        rest = text[rest_start:]
        for marker in ('"""', "'''"):
            at = rest.find(marker)
            if at >= 0 and rest.find(marker, at + 3) < 0:
                body = rest[at + 3 :]
                if body.strip():
                    current.strings.append(ValueLine(number, rest_start + at + 4, body.strip()))
                triple = marker
                break
        if triple:
            continue
        for match in _STRING.finditer(rest):
            value = match.group(1) if match.group(1) is not None else match.group(2)
            current.strings.append(ValueLine(number, rest_start + match.start() + 2, value))
        depth += _depth_change(rest)
    return entries


def _depth_change(text: str) -> int:
    """Net `[`/`{` nesting of a TOML line, ignoring strings and comments."""
    stripped = _STRING.sub("", text.split("#", 1)[0] if "#" in _STRING.sub("", text) else text)
    stripped = stripped.split("#", 1)[0]
    return stripped.count("[") + stripped.count("{") - stripped.count("]") - stripped.count("}")
