"""Flags loading a rerun plugin: `-p rerunfailures`/`-p flaky` on pytest command lines and in addopts,
`PYTEST_PLUGINS`, `pytest_plugins` and `pluginmanager.import_plugin` in conftest or test modules, and
pytest's `required_plugins`."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.arg_sources import ADDOPTS_ENV, placed_hits
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.pytest_args import forbidden_requirement, is_forbidden_plugin
from lanegate.workflow_lint.pytest_config import PYTEST_SECTIONS, PYTEST_TOML_TABLES
from lanegate.workflow_lint.rule import ALL_KINDS, INI_KINDS, FileKind, Rule

# a module that names none of these loads no plugin: not walked
_LOAD_WORDS = re.compile(r"pytest_plugins|import_plugin|register|consider_module")


def _python(ctx: FileContext) -> Iterator[Finding]:
    module = ctx.module
    if not isinstance(module, ast.Module) or not _LOAD_WORDS.search(ctx.text):
        return
    for node in ctx.tree.nodes if ctx.tree is not None else ast.walk(module):
        values: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if (
                any(isinstance(t, ast.Name) and t.id == "pytest_plugins" for t in targets)
                and node.value is not None
            ):
                values = [node.value]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("import_plugin", "register", "consider_module")
        ):
            values = list(node.args)
        for value in values:
            for const in ast.walk(value):
                if (
                    isinstance(const, ast.Constant)
                    and isinstance(const.value, str)
                    and is_forbidden_plugin(const.value)
                ):
                    yield ctx.finding(
                        RULE,
                        const.lineno,
                        const.col_offset + 1,
                        f"loads rerun plugin {const.value!r}",
                    )


def check(ctx: FileContext) -> Iterator[Finding]:
    for hit in placed_hits(ctx):
        if hit.kind == "plugin" and hit.source != ADDOPTS_ENV:
            yield ctx.finding(RULE, hit.line, hit.column, f"`{hit.text}` loads a rerun plugin")
    if ctx.kind is FileKind.PYTHON:
        yield from _python(ctx)
    elif ctx.kind in INI_KINDS:
        for entry in ctx.ini():
            if entry.section in PYTEST_SECTIONS and entry.key.lower() == "required_plugins":
                for value in entry.values:
                    for offset, word in _words(value.text):
                        if forbidden_requirement(word):
                            yield ctx.finding(
                                RULE,
                                value.line,
                                value.column + offset,
                                f"required_plugins requires rerun plugin {word!r}",
                            )
    elif ctx.kind is FileKind.PYPROJECT:
        for toml_entry in ctx.toml_entries():
            table, _, key = toml_entry.dotted.rpartition(".")
            if table in PYTEST_TOML_TABLES and key == "required_plugins":
                for value in toml_entry.strings:
                    for offset, word in _words(value.text):
                        if forbidden_requirement(word):
                            yield ctx.finding(
                                RULE,
                                value.line,
                                value.column + offset,
                                f"required_plugins requires rerun plugin {word!r}",
                            )


def _words(text: str) -> Iterator[tuple[int, str]]:
    offset = 0
    for part in text.split(" "):
        if part:
            yield offset, part
        offset += len(part) + 1


RULE = Rule(
    id="rerun-plugin-load",
    summary="a rerun plugin (pytest-rerunfailures, flaky, pytest-retry) is loaded into pytest",
    fix="stop loading the plugin; lanegate runs pytest with `-p no:rerunfailures -p no:flaky -p no:pytest_retry`",
    kinds=ALL_KINDS - {FileKind.REQUIREMENTS},
    check=check,
)
