"""Flags rerun flags (`--reruns`, `--only-rerun`, pytest-retry's `--retries`, `gotestsum --rerun-fails`,
`ctest --repeat until-pass`) on test command lines, in `env:` and matrix values, action inputs, tox
`commands` and pyproject scripts."""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.arg_sources import ADDOPTS_ENV, CONFIG_ADDOPTS, PlacedHit, placed_hits
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, FileKind, Rule

_WHERE = {
    "command": "on a command line",
    "env": "in an env value",
    "matrix": "in a matrix value (injected into the test command)",
    "input": "in an action input",
}


def check(ctx: FileContext) -> Iterator[Finding]:
    # one finding per position: a variable holding `--reruns 3 --reruns-delay 1` is one construct
    at: dict[tuple[int, int], list[PlacedHit]] = {}
    for hit in placed_hits(ctx):
        if hit.kind == "flag" and hit.source not in (CONFIG_ADDOPTS, ADDOPTS_ENV):
            at.setdefault((hit.line, hit.column), []).append(hit)
    for (line, column), hits in at.items():
        shown = ", ".join(f"`{h.text}`" for h in hits)
        where = _WHERE.get(hits[0].source, "")
        yield ctx.finding(
            RULE, line, column, f"{shown} {where} re-runs failing tests".replace("  ", " ")
        )


RULE = Rule(
    id="test-rerun-flag",
    summary="a test runner is told to re-run failing tests",
    fix="remove the rerun flag; a test that passes only on a rerun is a flake to fix or lease",
    kinds=SHELL_KINDS | {FileKind.TOX_INI, FileKind.PYPROJECT, FileKind.TOOL_TOML},
    check=check,
)
