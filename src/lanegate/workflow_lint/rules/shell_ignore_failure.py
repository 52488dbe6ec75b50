"""Flags a test command whose failure is swallowed: `|| true`, `|| exit 0`, `|| :` and other non-failing
commands after it; an `if` (or `if !`) on a test command whose branches never fail; a test command
piped into another command (`pytest | tee log`) where the shell has no pipefail."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, FileKind, Rule
from lanegate.workflow_lint.shell import (
    Command,
    captured_status,
    fallbacks,
    flag_reported,
    is_test_command,
    propagates_failure,
    reruns_last_failures,
)

_GATE = re.compile(r"\||\bif\b")


def _loop_control(command: Command) -> bool:
    return bool(command.words) and command.words[0].value in ("break", "continue")


_SET_E = re.compile(r"^\s*set\s+-[a-z]*e|^\s*set\s+-o\s+errexit|^#!.*\s-[a-z]*e\b", re.MULTILINE)
_SET_PLUS_E = re.compile(r"^\s*set\s+\+[a-z]*e|^\s*set\s+\+o\s+errexit", re.MULTILINE)


def _errexit(ctx: FileContext, text: str) -> bool:
    """Whether a failing command ends the script: GitHub runs `run:` blocks in bash, sh and zsh with
    `-e`; a repository script needs its own `set -e`; `set +e` turns it off."""
    if _SET_PLUS_E.search(text):
        return False
    return ctx.kind is not FileKind.SCRIPT or bool(_SET_E.search(text))


def check(ctx: FileContext) -> Iterator[Finding]:
    for block, script in ctx.posix_scripts(_GATE):
        for _, operand in fallbacks(script):
            if any(is_test_command(c) or reruns_last_failures(c) for c in operand):
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
        errexit = _errexit(ctx, block.node.text)
        for conditional in script.conditionals:
            # a branch that breaks or continues a loop is loop control: shell-retry-loop judges it
            if (
                any(is_test_command(c) for c in conditional.condition)
                and not any(propagates_failure(c) or _loop_control(c) for c in conditional.branches)
                and not flag_reported(script, conditional, errexit)
            ):
                yield ctx.in_scalar(
                    RULE,
                    block.node,
                    conditional.line,
                    conditional.col,
                    "if",
                    "a test command is the condition of an `if` whose branches never fail: its failure is swallowed",
                )
        if not (block.pipefail or script.pipefail or "PIPESTATUS" in block.node.text):
            commands = script.commands
            for command in commands:
                if command.op_after == "|" and is_test_command(command):
                    yield ctx.at_command(
                        RULE,
                        block,
                        command,
                        f"`{command.words[0].raw} | ...` without pipefail: the pipeline's last command decides the step",
                    )


RULE = Rule(
    id="shell-ignore-failure",
    summary="a test command's failure is swallowed (`|| true`, `if ! pytest`, `pytest | tee` without pipefail)",
    fix="delete the `|| ...`, or end it with `exit 1` when you need to log something first",
    kinds=SHELL_KINDS,
    check=check,
)
