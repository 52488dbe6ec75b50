"""Flags logic that branches on the run attempt (`github.run_attempt`, `$GITHUB_RUN_ATTEMPT`): a job that
behaves differently on a re-run is there to let the re-run pass."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, Rule
from lanegate.workflow_lint.shell import argv
from lanegate.workflow_lint.yamldoc import YNode

_ATTEMPT = re.compile(r"run_attempt|RUN_ATTEMPT")
_COMPARISON = re.compile(r"==|!=|<=|>=|<|>|\b(fromJSON|startsWith)\b")
_NUMERIC_TESTS = frozenset({"-gt", "-ge", "-lt", "-le", "-eq", "-ne"})
_DATA = frozenset({"echo", "printf", "cat", "tee", "export"})

_GATE = re.compile(r"run_attempt", re.IGNORECASE)


def _conditions(ctx: FileContext) -> Iterator[YNode]:
    for _, job in ctx.jobs():
        node = job.get("if")
        if node is not None and node.is_scalar:
            yield node
    for step in ctx.steps():
        node = step.node.get("if")
        if node is not None and node.is_scalar:
            yield node


def check(ctx: FileContext) -> Iterator[Finding]:
    for node in _conditions(ctx):
        match = _ATTEMPT.search(node.text)
        if match and _COMPARISON.search(node.text):
            yield ctx.in_scalar(
                RULE,
                node,
                0,
                match.start(),
                match.group(0),
                "condition depends on the run attempt: a re-run takes another path",
            )
    for block, script in ctx.posix_scripts(_GATE):
        for command in script.commands:
            args = argv(command)
            if not args or args[0].value in _DATA:
                continue
            attempt = next((w for w in command.words if _ATTEMPT.search(w.value)), None)
            if attempt is None:
                continue
            # `>` and `<` are redirections outside `[ ]`, so only tests and numeric operators count
            if args[0].value in ("[", "[[", "test") or any(
                w.value in _NUMERIC_TESTS for w in command.words
            ):
                yield ctx.in_scalar(
                    RULE,
                    block.node,
                    attempt.line,
                    attempt.col,
                    attempt.raw,
                    "script branches on the run attempt: a re-run takes another path",
                )


RULE = Rule(
    id="run-attempt",
    summary="the workflow behaves differently on a re-run (branches on the run attempt)",
    fix="remove the run-attempt condition; record run_attempt in artifacts, never branch on it",
    kinds=SHELL_KINDS,
    check=check,
)
