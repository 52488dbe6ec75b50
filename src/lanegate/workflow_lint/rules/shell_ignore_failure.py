"""Flags a test command whose exit status does not reach the step's (or script's): `|| true` and other
non-failing fallbacks, an `if` on a test command whose branches never fail, a pipe without pipefail,
and every construct `status_path` finds on the way (an exit trap that exits 0, `!`, a non-final `&&`
item, an unwaited `&`, `find -exec ... ;`, a command substitution inside another command, a check of
the captured status that admits a failure, a later command when the shell has no errexit)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext, RunBlock
from lanegate.workflow_lint.rule import SHELL_KINDS, FileKind, Rule
from lanegate.workflow_lint.shell import (
    Command,
    ShellScript,
    captured_status,
    fallbacks,
    flag_reported,
    is_test_command,
    propagates_failure,
    reruns_last_failures,
)
from lanegate.workflow_lint.status_path import StatusPath

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


_ERREXIT_FLAG = re.compile(r"^-[a-z]*e[a-z]*$|^errexit$")


def _shell_errexit(ctx: FileContext, block: RunBlock) -> bool:
    """Whether the shell starts with errexit on: GitHub's `bash`/`sh` keywords add `-e`; a custom
    line (`bash {0}`, `bash -l {0}`) has it only when it says so; a repository script only with
    `-e` on its `#!` line (a `set -e` inside is followed command by command)."""
    if ctx.kind is FileKind.SCRIPT:
        first = block.node.text.split("\n", 1)[0]
        return first.startswith("#!") and any(_ERREXIT_FLAG.match(w) for w in first.split()[1:])
    words = block.shell.split()
    return block.from_input or len(words) <= 1 or any(_ERREXIT_FLAG.match(w) for w in words[1:])


def _fallback_findings(
    ctx: FileContext, block: RunBlock, script: ShellScript, path: StatusPath
) -> Iterator[Finding]:
    for first, operand in fallbacks(script):
        if first.negated:
            continue  # `! pytest || ...`: the negation is reported
        if any(is_test_command(c) or reruns_last_failures(c) for c in operand):
            continue  # a second run: shell-rerun-fallback reports the chain
        if propagates_failure(operand[-1]):
            continue
        kept, where = path.capture(operand)
        if kept is False and where is not None:
            yield ctx.at_command(
                RULE, block, where, "this check of the status passes when the test command fails"
            )
            continue
        if kept is True or captured_status(script, operand):
            continue
        first_part = operand[0]
        shown = " ".join(w.raw for w in first_part.words)
        yield ctx.at_command(
            RULE,
            block,
            first_part,
            f"`|| {shown}` after a test command turns its failure into a pass",
        )


def check(ctx: FileContext) -> Iterator[Finding]:
    for block, script in ctx.posix_scripts():
        path = StatusPath(script, _shell_errexit(ctx, block))
        for mask in path.masks():
            yield ctx.at_command(RULE, block, mask.command, mask.message)
        if not _GATE.search(block.node.text):
            continue
        yield from _fallback_findings(ctx, block, script, path)
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
    summary="a test command's exit status does not reach the step's (`|| true`, `! pytest`, an exit"
    " trap, `pytest &`, `echo $(pytest)`, `pytest | tee` without pipefail, ...)",
    fix="let the test command's status end the step: delete the `|| ...` (or end it with `exit 1`),"
    " and keep the test command out of `!`, `&`, `$(...)` arguments and `find -exec ... \\;`",
    kinds=SHELL_KINDS,
    check=check,
)
