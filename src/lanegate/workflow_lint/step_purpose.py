"""What a step or job is for: test evidence, or something else (upload, notify, label, lint, release).

A step is evidence when it runs a recognised test command: directly, through a task runner, a script
of the repository, a local action, or an action input. A step lanegate cannot see into (an unknown
action, a script that is not in the repository) counts as evidence: fail closed. Failure-forgiving
constructs are findings on evidence only.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from lanegate.workflow_lint.actions import is_script_action, parse_uses
from lanegate.workflow_lint.bounded_parse import parse_python
from lanegate.workflow_lint.context import FileContext, RunBlock, Step, working_directory
from lanegate.workflow_lint.known_actions import non_test_action
from lanegate.workflow_lint.python_steps import is_test_call
from lanegate.workflow_lint.repo_scripts import in_directory, scripts_run_by
from lanegate.workflow_lint.rule import FileKind
from lanegate.workflow_lint.runners import RUNNERS
from lanegate.workflow_lint.shell import is_test_command
from lanegate.workflow_lint.yamldoc import FILE_STYLE, YNode

# a test program named anywhere in text lanegate does not parse as POSIX shell (pwsh, cmd, inputs)
TEST_WORDS = re.compile(
    r"\b(py\.?test|pytest|unittest|tox|nox|nose2?|hypothesis\s+fuzz|manage\.py\s+test|"
    r"(npm|yarn|pnpm|bun)\s+(run\s+)?test|jest|mocha|vitest|playwright|cypress|"
    r"cargo\s+(test|nextest)|go\s+test|gotestsum|rspec|ctest|phpunit|"
    r"(make|just|spin|hatch|pixi|task)\s+(run\s+)?[\w:-]*test|gradlew?\s+\S*(test|check|build)|"
    r"mvn\w*\s+\S*(test|verify|install|package))\b",
    re.IGNORECASE,
)
# text without any of these cannot run a test command or a repository script: not parsed at all
# (every program of the runner table is one of them)
_COULD_RUN_TESTS = re.compile(
    r"test|spec|check|behave|ward|fuzz|e2e|smoke|\b(?:"
    + "|".join(sorted({re.escape(p.rsplit("/", 1)[-1]) for r in RUNNERS for p in r.programs}))
    + r")\b|\./|\.(sh|bash|py)\b|\b(ba|z|da|k)?sh\b|\bsource\b|^\s*\.\s",
    re.IGNORECASE | re.MULTILINE,
)
# name parts of actions that never run the caller's tests
_OTHER_PARTS = frozenset(
    """checkout setup cache upload download artifact artifacts labeler label labels release
    releases publish deploy pages notify notification slack discord mattermost teams comment
    comments codecov coveralls coverage changed files paths filter stale token app login buildx qemu
    metadata restore save lock summary alls green dependabot automerge merge backport welcome
    greetings assign triage milestone changelog docs spell typos codeql attest attestation sigstore
    gh pypi twine toolchain install cosign ssh tmate debug wait sleep issue issues semantic title
    pr pull request size first interaction lint linter format fmt precommit pre commit ruff
    mypy shellcheck actionlint zizmor scorecard dependency review audit pip""".split()
)
_TEST_PARTS = frozenset({"test", "tests", "testing", "pytest", "tox", "nox", "e2e", "runtests"})
_SPLIT = re.compile(r"[-_/.@]+")


@dataclass(frozen=True, slots=True)
class Purpose:
    """Whether a step or job produces test evidence, and the reason in a few words."""

    evidence: bool
    why: str


def _text_runs_tests(text: str) -> bool:
    """A scalar (an action input) that names a test program: evidence, whatever the action does."""
    return bool(TEST_WORDS.search(text))


def _python_runs_tests(text: str) -> bool:
    """A Python script that calls pytest/unittest or starts a test command (unparseable: fail closed)."""
    try:
        tree = parse_python(text)
    except (SyntaxError, ValueError):
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (
            is_test_call(node) or _dotted(node.func) in ("unittest.main", "nox.main", "tox.main")
        ):
            return True
    return False


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return node.id if isinstance(node, ast.Name) else ""


def _run_purpose(ctx: FileContext, block: RunBlock) -> Purpose:
    if block.is_python and block.node.style == FILE_STYLE:
        if _python_runs_tests(block.node.text):
            return Purpose(True, "the Python script runs tests")
        return Purpose(False, "the Python script runs no test command")
    if not _COULD_RUN_TESTS.search(block.node.text):
        return Purpose(False, "runs no test command")
    if not block.is_posix:
        if TEST_WORDS.search(block.node.text):
            return Purpose(True, f"its {block.shell} script names a test command")
        return Purpose(False, f"its {block.shell} script names no test command")
    script = ctx.shell(block)
    for command in script.commands:
        if is_test_command(command):
            return Purpose(True, f"runs `{command.words[0].raw}`")
    if TEST_WORDS.search(block.node.text):
        for command in script.commands:
            nested = next(
                (w for w in command.words[1:] if " " in w.value and TEST_WORDS.search(w.value)),
                None,
            )
            if nested is not None:
                return Purpose(True, f"`{command.words[0].raw}` is given a test command to run")
    folder = "" if ctx.kind is FileKind.SCRIPT else working_directory(ctx.root, block.step)
    for reference, path in scripts_run_by(script):
        path = in_directory(path, folder)
        target = ctx.resolver.script(path) if ctx.resolver is not None else None
        if target is None:
            return Purpose(True, f"runs {reference}, which lanegate cannot read: fail closed")
        if target.evidence:
            return Purpose(True, f"runs {reference}, which runs tests")
    return Purpose(False, "runs no test command")


def _name_is_other(slug: str) -> bool:
    parts = {p for p in _SPLIT.split(slug.lower()) if p}
    return bool(parts & _OTHER_PARTS) and not parts & _TEST_PARTS


def _inputs_run_tests(inputs: YNode | None) -> bool:
    if inputs is None or not inputs.is_map:
        return False
    return any(v.is_scalar and _text_runs_tests(v.text) for _, v in inputs.str_items())


def _uses_purpose(ctx: FileContext, uses: str, inputs: YNode | None, *, workflow: bool) -> Purpose:
    if uses.startswith("./"):
        target = ctx.resolver.resolve(uses, workflow=workflow) if ctx.resolver else None
        if target is None:
            return Purpose(True, f"uses {uses}, which lanegate cannot read: fail closed")
        what = "runs tests" if target.evidence else "runs no test command"
        return Purpose(target.evidence, f"uses {uses}, which {what}")
    parsed = parse_uses(uses)
    known = non_test_action(parsed.slug) if parsed is not None else None
    if parsed is not None and known is not None:
        return Purpose(False, f"{parsed.slug} {known}: it runs no tests")
    if is_script_action(uses):
        if _inputs_run_tests(inputs):
            return Purpose(True, f"its {uses} script names a test command")
        return Purpose(False, f"its {uses} script names no test command")
    if parsed is not None and _name_is_other(parsed.slug):
        return Purpose(False, f"{parsed.slug} does not run the repository's tests")
    if _inputs_run_tests(inputs):
        return Purpose(True, f"passes a test command to {uses}")
    return Purpose(True, f"uses {uses}, which may run tests: fail closed")


def step_purpose(ctx: FileContext, step: Step) -> Purpose:
    """What one step is for."""
    block = ctx.run_block_of(step)
    if block is not None:
        return _run_purpose(ctx, block)
    uses = step.node.get("uses")
    if uses is not None and uses.is_scalar:
        return _uses_purpose(ctx, uses.text.strip(), step.node.get("with"), workflow=False)
    return Purpose(False, "runs nothing")


def job_purpose(ctx: FileContext, job_id: str, job: YNode) -> Purpose:
    """What one job is for: evidence when any of its steps is, or the workflow it calls is."""
    uses = job.get("uses")
    if uses is not None and uses.is_scalar:
        return _uses_purpose(ctx, uses.text.strip(), job.get("with"), workflow=True)
    for step in ctx.steps_of(job_id):
        purpose = step_purpose(ctx, step)
        if purpose.evidence:
            return Purpose(True, f"{step.label} {purpose.why}")
    return Purpose(False, "no step runs a test command")


def file_purpose(ctx: FileContext) -> bool:
    """True when a workflow, local action or repository script runs tests anywhere."""
    if ctx.kind is FileKind.SCRIPT:
        return any(_run_purpose(ctx, b).evidence for b in ctx.run_blocks())
    if ctx.kind is FileKind.WORKFLOW:
        return any(job_purpose(ctx, job_id, job).evidence for job_id, job in ctx.jobs())
    return any(step_purpose(ctx, s).evidence for s in ctx.steps())
