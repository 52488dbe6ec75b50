"""Flags rerun flags in pytest `addopts` and rerun-plugin keys (`reruns`, `reruns_delay`, `retries`, ...)
in pytest.ini, setup.cfg, tox.ini and pyproject.toml."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.arg_sources import CONFIG_ADDOPTS, placed_hits
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.pytest_config import PYTEST_SECTIONS, PYTEST_TOML_TABLES, RERUN_INI_KEYS
from lanegate.workflow_lint.rule import INI_KINDS, FileKind, Rule


def check(ctx: FileContext) -> Iterator[Finding]:
    for hit in placed_hits(ctx):
        if hit.source == CONFIG_ADDOPTS and hit.kind == "flag":
            yield ctx.finding(
                RULE, hit.line, hit.column, f"addopts adds `{hit.text}` to every pytest run"
            )
    if ctx.kind is FileKind.PYPROJECT:
        for entry in ctx.toml_entries():
            table, _, key = entry.dotted.rpartition(".")
            if table in PYTEST_TOML_TABLES and key in RERUN_INI_KEYS:
                yield ctx.finding(
                    RULE,
                    entry.line,
                    entry.column,
                    f"pytest option `{key}` makes a rerun plugin re-run failing tests",
                )
    else:
        for item in ctx.ini():
            if item.section in PYTEST_SECTIONS and item.key.lower() in RERUN_INI_KEYS:
                yield ctx.finding(
                    RULE,
                    item.line,
                    item.column,
                    f"pytest option `{item.key}` makes a rerun plugin re-run failing tests",
                )


RULE = Rule(
    id="pytest-config-rerun",
    summary="pytest configuration re-runs failing tests (addopts flags or rerun-plugin keys)",
    fix="delete the rerun option from the pytest configuration",
    kinds=INI_KINDS | {FileKind.PYPROJECT},
    check=check,
)
