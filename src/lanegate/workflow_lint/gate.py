"""The gate's lint (`lanegate lint --gate`): the whole repository, each finding put in its scope (what
Lane B runs, what the diff adds, Lane A); only the first two fail the gate. `test-retry-loop` reads
the test modules the diff adds or changes (every one when asked)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path, PurePosixPath

from lanegate import git
from lanegate.diff import Change, changed_lines, classify_diff
from lanegate.errors import GitError, UsageError
from lanegate.model import Finding
from lanegate.policy import Policy
from lanegate.workflow_lint import LintResult, active_targets, sort_key
from lanegate.workflow_lint.discover import Discovered, discover, kind_of
from lanegate.workflow_lint.exemptions import apply
from lanegate.workflow_lint.parallel import lint_all, worker_count
from lanegate.workflow_lint.plugin_use import mark_dormant
from lanegate.workflow_lint.rule import FileKind
from lanegate.workflow_lint.scope import (
    Caller,
    GateScope,
    Scope,
    find_callers,
    installed_requirements,
    lane_b_files,
)
from lanegate.workflow_lint.session import Session


def _added_lines(root: Path, base: str, policy: Policy) -> dict[str, frozenset[int]]:
    """Root-relative changed files of `base...HEAD` -> the head-side lines the diff added or changed."""
    try:
        repo = git.repo_root(root)
        summary = classify_diff(repo, base, policy)
    except GitError as exc:
        raise UsageError(
            f"--base {base}: {exc.diagnostic()}",
            hint="give the pull request's base commit (fetch it first: fetch-depth 0)",
        ) from None
    prefix = root.resolve().relative_to(repo.resolve()).as_posix()
    prefix = "" if prefix == "." else prefix + "/"
    added: dict[str, frozenset[int]] = {}
    for changed in summary.files:
        if changed.change is Change.DELETED or not changed.path.startswith(prefix):
            continue
        lines = (
            frozenset()
            if changed.binary
            else changed_lines(repo, summary.merge_base, summary.head_commit, changed.path)
        )
        added[changed.path[len(prefix) :]] = lines
    return added


def _named_callers(root: Path, names: Sequence[str]) -> list[Caller]:
    callers = []
    for name in names:
        relative = PurePosixPath(name.split("@", 1)[0]).as_posix().removeprefix("./")
        if kind_of(relative) is not FileKind.WORKFLOW or not (root / relative).is_file():
            raise UsageError(
                f"--caller {name}: not a workflow file under {root}/.github/workflows",
                hint="name the workflow that calls lane-b.yml, e.g. .github/workflows/agent-gate.yml",
            )
        callers.append(Caller(relative))
    return callers


def lint_gate(
    root: Path,
    *,
    base: str,
    policy: Policy,
    today: date,
    callers: Sequence[str] = (),
    all_tests: bool = False,
    jobs: int | None = None,
) -> LintResult:
    """Lint the repository at `root` for the gate: Lane B's scope and what `base...HEAD` added fail;
    the rest is Lane A, where the policy's dated exemptions apply and findings only report."""
    added = _added_lines(root, base, policy)
    skipped: list[str] = []
    targets = active_targets(discover(root), skipped)
    judged = (
        None
        if all_tests
        else frozenset(t.path for t in targets if t.kind is FileKind.PYTHON and t.path in added)
    )
    session = Session(root, judged_tests=judged)
    workflows = [t.path for t in targets if t.kind is FileKind.WORKFLOW]
    found = find_callers(root, workflows) + _named_callers(root, callers)
    known = {t.path for t in targets if t.kind is FileKind.REQUIREMENTS}
    requirements = installed_requirements(root, found, known)
    # a file `install: -r ci/deps.txt` names is read whatever its name
    targets += [Discovered(p, FileKind.REQUIREMENTS) for p in sorted(requirements - known)]
    lint_all(session, targets, worker_count(len(targets), jobs))
    skipped.extend(session.not_analysed)
    marked, dormant = mark_dormant({f for fs in session.results.values() for f in fs})
    findings = sorted(marked, key=sort_key)
    scope = GateScope(lane_b_files(targets, found, requirements, session.calls), added, dormant)
    scopes: dict[Finding, Scope] = {f: scope.of(f) for f in findings}
    lane_a = [f for f in findings if scopes[f] is Scope.LANE_A]
    counted = [f for f in findings if scopes[f] is not Scope.LANE_A]
    exempted: list[Finding] = []
    if policy.lint.exemptions:
        applied = apply(
            lane_a, policy.lint.exemptions, today=today, policy_path=policy.source.split(" ")[0]
        )
        lane_a = [*applied.counted, *applied.expired]
        exempted = list(applied.exempted)
        scopes.update(dict.fromkeys((*lane_a, *exempted), Scope.LANE_A))
    return LintResult(
        tuple(sorted({*counted, *lane_a}, key=sort_key)),
        tuple(sorted(set(exempted), key=sort_key)),
        len(session.results),
        "lane-b",
        tuple(sorted(set(skipped))),
        scopes=scopes,
        gate=True,
    )
