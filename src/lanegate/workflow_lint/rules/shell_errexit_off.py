"""Flags `set +e` (or `set +o errexit`) that is still in force when a test command runs."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, Rule
from lanegate.workflow_lint.shell import Command, errexit_setting, is_test_command

_GATE = re.compile(r"\bset\b[^\n]*\+")


def check(ctx: FileContext) -> Iterator[Finding]:
    for block, script in ctx.posix_scripts(_GATE):
        off: Command | None = None
        for command in script.commands:
            state = errexit_setting(command)
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
