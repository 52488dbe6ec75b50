"""Flags re-runs of a whole workflow run or its failed jobs: `gh run rerun`, the REST re-run endpoints
(`/actions/runs/{id}/rerun`, `/rerun-failed-jobs`, `/actions/jobs/{id}/rerun`), and Octokit's
`reRunWorkflow*` calls in `actions/github-script` (typically on `workflow_run`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.actions import is_script_action
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import SHELL_KINDS, Rule
from lanegate.workflow_lint.shell import argv

_API = re.compile(r"/actions/(runs|jobs)/[^\s'\"]*/rerun|/rerun-failed-jobs")
_OCTOKIT = re.compile(
    r"\breRun(Workflow|WorkflowFailedJobs|JobForWorkflowRun)\b|\bre_?run_(workflow|failed_jobs|job)\b",
    re.IGNORECASE,
)


_GATE = re.compile(r"rerun|re_run", re.IGNORECASE)


def _trigger(ctx: FileContext) -> str:
    root = ctx.root
    on = root.get("on") if root is not None else None
    if on is None and root is not None:
        on = root.get("true")  # `on:` read as YAML 1.1 boolean by some writers
    if on is not None and (
        "workflow_run" in on.text
        or on.get("workflow_run") is not None
        or any(i.text == "workflow_run" for i in on.items)
    ):
        return " (triggered by workflow_run: a failed run is retried)"
    return ""


def check(ctx: FileContext) -> Iterator[Finding]:
    trigger = _trigger(ctx)
    for block in ctx.run_blocks():
        if not _GATE.search(block.node.text):
            continue
        if block.is_posix:
            for command in ctx.shell(block).commands:
                args = argv(command)
                values = [w.value for w in args]
                if values[:3] == ["gh", "run", "rerun"]:
                    yield ctx.at_command(
                        RULE,
                        block,
                        command,
                        f"`gh run rerun` re-runs a workflow run{trigger}",
                    )
                    continue
                for word in command.words:
                    if _API.search(word.value):
                        yield ctx.in_scalar(
                            RULE,
                            block.node,
                            word.line,
                            word.col,
                            word.raw,
                            f"calls the re-run API{trigger}",
                        )
                        break
        else:
            yield from _text_hits(ctx, block.node, trigger)
    for step in ctx.steps():
        uses = step.node.get("uses")
        inputs = step.node.get("with")
        script = inputs.get("script") if inputs is not None else None
        if (
            uses is not None
            and script is not None
            and script.is_scalar
            and is_script_action(uses.text)
        ):
            yield from _text_hits(ctx, script, trigger)


def _text_hits(ctx: FileContext, node: object, trigger: str) -> Iterator[Finding]:
    from lanegate.workflow_lint.yamldoc import YNode

    assert isinstance(node, YNode)
    for index, line in enumerate(node.text.splitlines()):
        match = (
            _OCTOKIT.search(line) or _API.search(line) or re.search(r"\bgh\s+run\s+rerun\b", line)
        )
        if match:
            yield ctx.in_scalar(
                RULE,
                node,
                index,
                match.start(),
                match.group(0),
                f"re-runs a workflow run ({match.group(0)}){trigger}",
            )


RULE = Rule(
    id="workflow-rerun",
    summary="a workflow re-runs a failed run or its failed jobs",
    fix="remove the automatic re-run; a failed run must stay failed until a human looks",
    kinds=SHELL_KINDS,
    check=check,
)
