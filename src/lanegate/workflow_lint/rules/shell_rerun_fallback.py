"""Flags `test-command || test-command` fallbacks (`pytest || pytest --lf`): a second run on failure."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, Rule
from lanegate.workflow_lint.shell import fallbacks, is_test_command, reruns_last_failures

_GATE = re.compile(r"\|\|")


def check(ctx: FileContext) -> Iterator[Finding]:
    for block, script in ctx.posix_scripts(_GATE):
        for _, operand in fallbacks(script):
            rerun = next(
                (c for c in operand if is_test_command(c) or reruns_last_failures(c)), None
            )
            if rerun is not None:
                yield ctx.at_command(
                    RULE,
                    block,
                    rerun,
                    "a failing test command is run again after `||`; the second run decides the step",
                )


RULE = Rule(
    id="shell-rerun-fallback",
    summary="a failing test command is re-run after `||`",
    fix="drop the `|| <second run>`; `--lf`/`--ff` are fine on their own, never as a fallback",
    kinds=SHELL_KINDS,
    check=check,
)
