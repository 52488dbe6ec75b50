"""Flags a test command run through a retry helper: a shell function that loops over `"$@"`, or a
command named like a retrier (`retry`, `retry.sh`, `with_retries`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, Rule
from lanegate.workflow_lint.shell import Command, Function, ShellScript, argv, is_test_command

_RETRY_NAME = re.compile(r"retr(y|ies|ying)|backoff", re.IGNORECASE)

_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})
_GATE = re.compile(r"\(\)|\bfunction\b|retr|backoff", re.IGNORECASE)


def _loops_over_arguments(function: Function) -> bool:
    for loop in function.loops:
        for command in loop.condition + loop.body:
            args = argv(command)
            if args and (args[0].value.startswith("$") or args[0].value == "eval"):
                return True
    return False


def _runs_tests(args: list[Command | None]) -> bool:
    return any(c is not None and is_test_command(c) for c in args)


def retrying_calls(script: ShellScript) -> Iterator[tuple[Command, str]]:
    """Commands that hand a test command to a retrier, with the retrier's name."""
    retriers = {name for name, f in script.functions.items() if _loops_over_arguments(f)}
    for command in script.commands:
        args = argv(command)
        if len(args) < 2:
            continue
        if args[0].value.rsplit("/", 1)[-1] in _SHELLS and len(args) > 2:
            args = args[1:]  # `bash scripts/retry.sh pytest`: the script is the retrier
        head = args[0].value
        base = head.rsplit("/", 1)[-1]
        if head not in retriers and not (_RETRY_NAME.search(base) and head not in script.functions):
            continue
        tails = [
            Command(args[k:]) for k in range(1, len(args)) if not args[k].value.startswith("-")
        ]
        if _runs_tests(list(tails)):
            yield command, head


def check(ctx: FileContext) -> Iterator[Finding]:
    for block, script in ctx.posix_scripts(_GATE):
        for command, name in retrying_calls(script):
            yield ctx.at_command(
                RULE,
                block,
                command,
                f"test command run through retry helper `{name}`",
            )


RULE = Rule(
    id="shell-retry-function",
    summary="a test command is run through a retry helper function or script",
    fix="call the test command directly, once",
    kinds=SHELL_KINDS,
    check=check,
)
