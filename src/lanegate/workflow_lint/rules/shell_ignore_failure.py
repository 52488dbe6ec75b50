"""Flags `|| true`, `|| exit 0`, `|| :` and other non-failing commands after a test command."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, Rule
from lanegate.workflow_lint.shell import (
    captured_status,
    fallbacks,
    is_test_command,
    propagates_failure,
)

_GATE = re.compile(r"\|\|")


def check(ctx: FileContext) -> Iterator[Finding]:
    for block, script in ctx.posix_scripts(_GATE):
        for _, operand in fallbacks(script):
            if any(is_test_command(c) for c in operand):
                continue  # a second run: shell-rerun-fallback reports the chain
            if propagates_failure(operand[-1]) or captured_status(script, operand):
                continue
            first = operand[0]
            shown = " ".join(w.raw for w in first.words)
            yield ctx.at_command(
                RULE,
                block,
                first,
                f"`|| {shown}` after a test command turns its failure into a pass",
            )


RULE = Rule(
    id="shell-ignore-failure",
    summary="a test command's failure is swallowed (`|| true`, `|| exit 0`, `|| echo ...`)",
    fix="delete the `|| ...`, or end it with `exit 1` when you need to log something first",
    kinds=SHELL_KINDS,
    check=check,
)
