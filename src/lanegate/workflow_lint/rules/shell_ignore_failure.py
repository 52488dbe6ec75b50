"""Flags a test command whose exit status does not reach the step's (or script's): `|| true` and other
non-failing fallbacks, an `if` on a test command whose branches never fail, a pipe without pipefail,
and every construct `status_path` finds on the way (an exit trap that exits 0, `!`, a non-final `&&`
item, an unwaited `&`, `find -exec ... ;`, a command substitution inside another command, a check of
the captured status that admits a failure, a later command when the shell has no errexit)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext, RunBlock
from lanegate.workflow_lint.rule import SHELL_KINDS, FileKind, Rule
from lanegate.workflow_lint.shell import (
    Command,
    ShellScript,
    captured_status,
    fallbacks,
    flag_reported,
    inline_script,
    is_test_command,
    parse_snippet,
    propagates_failure,
    reruns_last_failures,
)
from lanegate.workflow_lint.status_path import StatusPath

_GATE = re.compile(r"\||\bif\b")
_MAX_INLINE_DEPTH = 2  # `bash -c '... bash -c "..."'`: scripts nested deeper are not opened


def _loop_control(command: Command) -> bool:
    return bool(command.words) and command.words[0].value in ("break", "continue")


_SET_E = re.compile(r"^\s*set\s+-[a-z]*e|^\s*set\s+-o\s+errexit", re.MULTILINE)
_SET_PLUS_E = re.compile(r"^\s*set\s+\+[a-z]*e|^\s*set\s+\+o\s+errexit", re.MULTILINE)
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


def _errexit(base: bool, text: str) -> bool:
    """Whether a failing command ends the script: the shell's own errexit or a `set -e`, unless a
    `set +e` turns it off anywhere."""
    if _SET_PLUS_E.search(text):
        return False
    return base or bool(_SET_E.search(text))


@dataclass(frozen=True, slots=True)
class _Hit:
    """A finding's place in the block (0-based line, column, the token there) and its message."""

    line: int
    col: int
    token: str
    message: str


def _at(command: Command, message: str) -> _Hit:
    return _Hit(command.line, command.col, command.words[0].raw, message)


def _fallback_hits(script: ShellScript, path: StatusPath) -> Iterator[_Hit]:
    for first, operand in fallbacks(script):
        if first.negated:
            continue  # `! pytest || ...`: the negation is reported
        if any(is_test_command(c) or reruns_last_failures(c) for c in operand):
            continue  # a second run: shell-rerun-fallback reports the chain
        if propagates_failure(operand[-1]):
            continue
        kept, where = path.capture(operand)
        if kept is False and where is not None:
            yield _at(where, "this check of the status passes when the test command fails")
            continue
        if kept is True or captured_status(script, operand):
            continue
        shown = " ".join(w.raw for w in operand[0].words)
        yield _at(operand[0], f"`|| {shown}` after a test command turns its failure into a pass")


def _hits(
    text: str, script: ShellScript, base_errexit: bool, pipefail: bool, depth: int
) -> Iterator[_Hit]:
    """Every place of one shell script where a test command's status is lost; `bash -c '...'`
    scripts inside it are judged the same way and reported at their command."""
    path = StatusPath(script, base_errexit)
    yield from (_at(mask.command, mask.message) for mask in path.masks())
    if _GATE.search(text):
        yield from _fallback_hits(script, path)
        errexit = _errexit(base_errexit, text)
        for conditional in script.conditionals:
            # a branch that breaks or continues a loop is loop control: shell-retry-loop judges it
            if (
                any(is_test_command(c) for c in conditional.condition)
                and not any(propagates_failure(c) or _loop_control(c) for c in conditional.branches)
                and not flag_reported(script, conditional, errexit)
            ):
                yield _Hit(
                    conditional.line,
                    conditional.col,
                    "if",
                    "a test command is the condition of an `if` whose branches never fail: its failure is swallowed",
                )
        if not (pipefail or script.pipefail or "PIPESTATUS" in text):
            for command in script.commands:
                if command.op_after == "|" and is_test_command(command):
                    yield _at(
                        command,
                        f"`{command.words[0].raw} | ...` without pipefail: the pipeline's last command decides the step",
                    )
    if depth >= _MAX_INLINE_DEPTH:
        return
    for command in script.commands:
        inline = inline_script(command)
        if inline is None:
            continue
        inner_text, inner_errexit = inline
        shown = command.words[0].raw
        for hit in _hits(inner_text, parse_snippet(inner_text), inner_errexit, False, depth + 1):
            yield _at(command, f"in `{shown} -c '...'`: {hit.message}")


def check(ctx: FileContext) -> Iterator[Finding]:
    for block, script in ctx.posix_scripts():
        text = block.node.text
        errexit = _shell_errexit(ctx, block)
        for hit in _hits(text, script, errexit, block.pipefail, 0):
            yield ctx.in_scalar(RULE, block.node, hit.line, hit.col, hit.token, hit.message)


RULE = Rule(
    id="shell-ignore-failure",
    summary="a test command's exit status does not reach the step's (`|| true`, `! pytest`, an exit"
    " trap, `pytest &`, `echo $(pytest)`, `pytest | tee` without pipefail, ...)",
    fix="let the test command's status end the step: delete the `|| ...` (or end it with `exit 1`),"
    " and keep the test command out of `!`, `&`, `$(...)` arguments and `find -exec ... \\;`",
    kinds=SHELL_KINDS,
    check=check,
)
