"""Flags `set +e` (or `set +o errexit`) that is still in force when a test command runs."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, Rule
from lanegate.workflow_lint.shell import Command, argv, is_test_command

_GATE = re.compile(r"\bset\b[^\n]*\+")


def _errexit(command: Command) -> bool | None:
    """False for `set +e`, True for `set -e`, None for anything else."""
    args = argv(command)
    if not args or args[0].value != "set":
        return None
    state: bool | None = None
    values = [w.value for w in args[1:]]
    for i, value in enumerate(values):
        if value in ("+o", "-o") and i + 1 < len(values) and values[i + 1] == "errexit":
            state = value == "-o"
        elif len(value) > 1 and value[0] in "+-" and value[1:].isalpha() and "e" in value[1:]:
            state = value[0] == "-"
    return state


def check(ctx: FileContext) -> Iterator[Finding]:
    for block, script in ctx.posix_scripts(_GATE):
        off: Command | None = None
        for command in script.commands:
            state = _errexit(command)
            if state is False:
                off = off or command
            elif state is True:
                off = None
            elif off is not None and is_test_command(command):
                yield ctx.in_scalar(
                    RULE,
                    block.node,
                    off.line,
                    off.col,
                    "set",
                    "`set +e` lets the script continue past a failing test command",
                )
                off = None


RULE = Rule(
    id="shell-errexit-off",
    summary="`set +e` is in force when a test command runs, so its failure can be swallowed",
    fix="keep errexit on around test commands; capture a status with `cmd || status=$?` and `exit $status`",
    kinds=SHELL_KINDS,
    check=check,
)
