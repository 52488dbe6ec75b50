"""Flags dependencies that install a rerun plugin (pytest-rerunfailures, flaky, pytest-retry): in
requirements files, pyproject dependencies/extras/dependency groups, setup.cfg, tox `deps`, and
`pip install` / `uv add` / `uv run --with` lines of workflow steps."""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.dependency_files import (
    Requirement,
    conda_requirements,
    setup_py_requirements,
)
from lanegate.workflow_lint.pytest_args import forbidden_requirement
from lanegate.workflow_lint.pytest_config import IniEntry, ValueLine
from lanegate.workflow_lint.rule import SHELL_KINDS, FileKind, Rule
from lanegate.workflow_lint.shell import Command, Word

_INSTALLERS = {
    "pip": ("install", "download"),
    "pip3": ("install",),
    "uv": ("add", "install", "pip", "tool"),
    "poetry": ("add",),
    "pdm": ("add",),
    "pipx": ("install", "inject", "run"),
    "conda": ("install", "create"),
    "mamba": ("install", "create"),
    "micromamba": ("install", "create"),
    "pixi": ("add",),
    "rye": ("add",),
    "hatch": ("run",),
    "uvx": (),
}
_WITH = frozenset({"--with", "-w", "--with-requirements", "--pip-args"})
_DEP_TABLE = re.compile(
    r"(^|\.)(pypi-|dev-)?dependencies$|(^|\.)pypi-dependencies(\.|$)|(^|\.)optional-dependencies(\.|$)|^dependency-groups(\.|$)|(^|\.)(extra-)?dependencies(\.|$)"
)
_DEP_KEY = re.compile(r"^((dev-|extra-|test-)?dependencies|requires|dev-dependencies|extras?)$")
_SETUP_CFG_KEYS = frozenset({"install_requires", "tests_require", "setup_requires"})

_GATE = re.compile(r"rerun|flaky|retry", re.IGNORECASE)


def _requirement_words(command: Command) -> Iterator[Word]:
    """Words of an install command that name packages (options skipped), and `--with` values."""
    words = command.words
    for i, word in enumerate(words):
        value = word.value
        name, eq, rest = value.partition("=")
        if name in _WITH:
            arg = rest if eq else (words[i + 1].value if i + 1 < len(words) else "")
            for part in arg.split(","):
                yield Word(word.raw, part, word.line, word.col if eq else words[i + 1].col)
    installer = -1
    for i, word in enumerate(words):
        base = word.value.rsplit("/", 1)[-1]
        if (
            base in _INSTALLERS
            and i + 1 < len(words)
            and (not _INSTALLERS[base] or words[i + 1].value in _INSTALLERS[base])
        ):
            installer = i + 1
            break
        if (
            base.startswith("python")
            and i + 2 < len(words)
            and words[i + 1].value == "-m"
            and words[i + 2].value in ("pip", "uv")
        ):
            installer = i + 3
            break
    if installer < 0:
        return
    for word in words[installer:]:
        if not word.value.startswith("-"):
            yield word


def _yaml(ctx: FileContext) -> Iterator[Finding]:
    for block, script in ctx.posix_scripts(_GATE):
        for command in script.commands:
            seen: set[tuple[int, int]] = set()
            for word in _requirement_words(command):
                name = forbidden_requirement(word.value)
                if name and (word.line, word.col) not in seen:
                    seen.add((word.line, word.col))
                    yield ctx.in_scalar(
                        RULE,
                        block.node,
                        word.line,
                        word.col,
                        word.raw,
                        f"installs rerun plugin {name}",
                    )


def _requirements(ctx: FileContext) -> Iterator[Finding]:
    for number, text in enumerate(ctx.lines, start=1):
        body = text.split(" #", 1)[0].rstrip()
        stripped = body.lstrip()
        if not stripped or stripped.startswith(("#", "-")):
            continue
        name = forbidden_requirement(stripped)
        if name:
            yield ctx.finding(
                RULE, number, len(body) - len(stripped) + 1, f"requires rerun plugin {name}"
            )


def _pyproject(ctx: FileContext) -> Iterator[Finding]:
    for entry in ctx.toml_entries():
        table, _, key = entry.dotted.rpartition(".")
        if _DEP_TABLE.search(table) and forbidden_requirement(key):
            yield ctx.finding(
                RULE,
                entry.line,
                entry.column,
                f"depends on rerun plugin {forbidden_requirement(key)}",
            )
            continue
        if not (_DEP_TABLE.search(table) or _DEP_KEY.match(key)):
            continue
        for value in entry.strings:
            name = forbidden_requirement(value.text)
            if name:
                yield ctx.finding(RULE, value.line, value.column, f"depends on rerun plugin {name}")


_TOX_REFERENCE = re.compile(r"\{\[([^\]]+)\]([\w.-]+)\}")
_MAX_SUBSTITUTIONS = 10_000  # values followed through `{[section]key}`, at most, per entry
_UNFOLLOWED = "{[...]...}"  # stands for what the cap left unread


def _tox_substituted(entries: list[IniEntry], entry: IniEntry) -> Iterator[tuple[ValueLine, str]]:
    """The values tox reads for `entry`, with every `{[section]key}` replaced by that entry's
    values, followed transitively (each referenced entry once): (the line where a value is
    written, the chain of references that pulled it in)."""
    by_name = {(e.section, e.key): e for e in entries}
    pending: deque[tuple[ValueLine, str]] = deque((v, "") for v in entry.values)
    seen = {(entry.section, entry.key)}
    budget = _MAX_SUBSTITUTIONS  # spent on values substitutions pull in, not the entry's own
    while pending:
        value, via = pending.popleft()
        if via:
            if budget == 0:
                # past the cap: a value not followed could hold the plugin (fail closed)
                yield ValueLine(entry.line, entry.column, _UNFOLLOWED), ""
                return
            budget -= 1
        references = _TOX_REFERENCE.findall(value.text)
        if not references:
            yield value, via
            continue
        for section, key in references:
            target = by_name.get((section.strip(), key))
            if target is None or (target.section, target.key) in seen:
                continue
            seen.add((target.section, target.key))
            shown = (
                f"{via} through {{[{section}]{key}}}" if via else f" through {{[{section}]{key}}}"
            )
            pending.extend((v, shown) for v in target.values)


def _ini(ctx: FileContext) -> Iterator[Finding]:
    entries = ctx.ini()
    reported: set[tuple[int, int]] = set()  # a shared section pulled into several environments
    for entry in entries:
        wanted = (
            (
                ctx.kind is FileKind.TOX_INI
                and entry.section.startswith("testenv")
                and entry.key == "deps"
            )
            or (
                ctx.kind is FileKind.SETUP_CFG
                and entry.section == "options"
                and entry.key in _SETUP_CFG_KEYS
            )
            or (ctx.kind is FileKind.SETUP_CFG and entry.section == "options.extras_require")
        )
        if not wanted:
            continue
        values = (
            _tox_substituted(entries, entry)
            if ctx.kind is FileKind.TOX_INI
            else ((v, "") for v in entry.values)
        )
        for value, via in values:
            if value.text.startswith("-"):
                continue
            name = forbidden_requirement(value.text)
            if value.text is _UNFOLLOWED:
                yield ctx.finding(
                    RULE,
                    value.line,
                    value.column,
                    f"[{entry.section}] deps pull in more than {_MAX_SUBSTITUTIONS} values through "
                    "{[section]key} substitutions: not followed, a rerun plugin may be among them",
                )
                continue
            if name and (value.line, value.column) not in reported:
                reported.add((value.line, value.column))
                pulled = f" (pulled into [{entry.section}] deps{via})" if via else ""
                yield ctx.finding(
                    RULE, value.line, value.column, f"depends on rerun plugin {name}{pulled}"
                )


def _other_files(ctx: FileContext) -> Iterator[Finding]:
    """setup.py, conda environment files and pixi/hatch TOML."""
    if ctx.kind is FileKind.SETUP_PY and isinstance(ctx.module, ast.Module):
        found: Iterator[Requirement] = setup_py_requirements(ctx.module)
    elif ctx.kind is FileKind.CONDA_ENV and ctx.yaml is not None:
        found = conda_requirements(ctx.yaml.root)
    elif ctx.kind is FileKind.TOOL_TOML:
        yield from _pyproject(ctx)  # pixi and hatch tables are spelled like pyproject's
        return
    else:
        return
    for requirement in found:
        name = forbidden_requirement(requirement.text)
        if name:
            yield ctx.finding(
                RULE, requirement.line, requirement.column, f"depends on rerun plugin {name}"
            )


def check(ctx: FileContext) -> Iterator[Finding]:
    if ctx.kind in SHELL_KINDS:
        yield from _yaml(ctx)
    elif ctx.kind is FileKind.REQUIREMENTS:
        yield from _requirements(ctx)
    elif ctx.kind is FileKind.PYPROJECT:
        yield from _pyproject(ctx)
    elif ctx.kind in (FileKind.TOX_INI, FileKind.SETUP_CFG):
        yield from _ini(ctx)
    else:
        yield from _other_files(ctx)


RULE = Rule(
    id="rerun-plugin-dependency",
    summary="a dependency installs a rerun plugin (pytest-rerunfailures, flaky, pytest-retry)",
    fix="remove the dependency: a rerun plugin is one mark or flag away from re-running failures",
    kinds=SHELL_KINDS
    | {
        FileKind.REQUIREMENTS,
        FileKind.PYPROJECT,
        FileKind.TOX_INI,
        FileKind.SETUP_CFG,
        FileKind.SETUP_PY,
        FileKind.CONDA_ENV,
        FileKind.TOOL_TOML,
    },
    check=check,
)
