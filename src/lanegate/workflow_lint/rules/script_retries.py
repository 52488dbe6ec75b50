"""Flags a step that runs a script of the repository (`./scripts/ci.sh`, `bash tools/test.sh`) whose
own commands retry or forgive a failing test command (the script is linted with the same analysis)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext, working_directory
from lanegate.workflow_lint.repo_scripts import in_directory, script_run_by
from lanegate.workflow_lint.rule import SHELL_KINDS, FileKind, Rule

# a script is named by a path or run by a shell or Python: blocks without these are not parsed here
_GATE = re.compile(
    r"(^|[\s;&|(])\.\.?/|\.(sh|bash|py)\b|\b(ba|z|da|k)?sh\s+[^-\s]|\bsource\s|^\s*\.\s|"
    r"(^|[\s;&|(])[\w.-]+/[\w./-]+",
    re.MULTILINE,
)


def check(ctx: FileContext) -> Iterator[Finding]:
    if ctx.resolver is None:
        return
    for block, script in ctx.posix_scripts(_GATE):
        for command in script.commands:
            found = script_run_by(command)
            if found is not None and ctx.kind is not FileKind.SCRIPT:
                found = (found[0], in_directory(found[1], working_directory(ctx.root, block.step)))
            target = ctx.resolver.script(found[1]) if found is not None else None
            if found is not None and target is not None and target.findings:
                reference = found[0]
                rules = ", ".join(sorted({f.rule_id for f in target.findings}))
                first = target.findings[0].primary.render()
                yield ctx.at_command(
                    RULE,
                    block,
                    command,
                    f"script {reference} retries or forgives a failure ({rules}; first at {first})",
                )


RULE = Rule(
    id="script-retries",
    summary="a step runs a repository script whose own commands retry or forgive a failure",
    fix="remove the retry construct from the script (see its own findings); run tests once",
    kinds=SHELL_KINDS,
    check=check,
)
