"""Flags shell and Python loops that re-run a test command until it passes (`until pytest; do ...`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.python_steps import retry_loops
from lanegate.workflow_lint.rule import SHELL_KINDS, Rule
from lanegate.workflow_lint.rules import unparseable_file
from lanegate.workflow_lint.shell import Loop, is_break_like, is_test_command
from lanegate.workflow_lint.step_purpose import TEST_WORDS

_GATE = re.compile(r"\b(until|while|for|select)\b")


def retries(loop: Loop) -> bool:
    """A loop retries when a test command is its `until`/`while` condition, sits in an `until` body, or
    sits in any loop body that also leaves the loop on success (`&& break`, `exit 0`)."""
    in_condition = any(is_test_command(c) for c in loop.condition)
    in_body = any(is_test_command(c) for c in loop.body)
    leaves = any(is_break_like(c) and c.op_before != "||" for c in loop.body)
    return (
        (loop.kind in ("until", "while") and in_condition)
        or (loop.kind == "until" and in_body)
        or (in_body and leaves)
    )


def check(ctx: FileContext) -> Iterator[Finding]:
    for block in ctx.run_blocks():
        if block.is_python:
            loops = retry_loops(block.node.text)
            if loops is None and TEST_WORDS.search(block.node.text):
                yield ctx.at_node(
                    unparseable_file.RULE,
                    block.node,
                    "a `shell: python` script that names a test command does not parse (invalid, "
                    "or nested too deeply): its loops cannot be checked",
                )
            for python_loop in loops or ():
                yield ctx.in_scalar(
                    RULE,
                    block.node,
                    python_loop.line,
                    python_loop.col,
                    python_loop.keyword,
                    f"Python `{python_loop.keyword}` loop re-runs the tests until they pass"
                    if python_loop.keyword in ("for", "while")
                    else f"the tests run several times and `{python_loop.keyword}` keeps the best result",
                )
        elif block.is_posix and _GATE.search(block.node.text):
            for loop in ctx.shell(block).loops:
                if retries(loop):
                    yield ctx.in_scalar(
                        RULE,
                        block.node,
                        loop.line,
                        loop.col,
                        loop.kind,
                        f"`{loop.kind}` loop re-runs a test command until it passes",
                    )


RULE = Rule(
    id="shell-retry-loop",
    summary="a shell or Python loop re-runs a test command until it passes",
    fix="run the test command once; a test that needs a second try is a flake to fix or lease",
    kinds=SHELL_KINDS,
    check=check,
)
