"""Which surviving candidates make the same change in behaviour, though their code differs.

One face::

    same_behaviour(space, survivors, *, policy, hidden, cpu_seconds) -> tuple[Agreement, ...]

Candidates whose code is the same change are grouped by their source (`grouping`). Two survivors
whose code differs may still do the same thing: the behaviour diff (`lanes.property.behaviour`)
tells, run between them rather than against the base. For a pair (first, second) the batch makes
a commit holding the second's tree on top of the first (`git commit-tree`: nothing of either runs
to make it), so the diff between them is what the second does otherwise; every changed function
of that diff is compared, the first's version as "base" and the second's as "head", each in its
own sandbox. The pair agrees when that diff changes Python functions only (every changed source
file is a `.py` whose changes lie in compared functions: no module-level code, no other file) and
every one of them answered `same`: on the inputs the engine drew from the first's annotations and
the changed lines' literals, neither answered otherwise. Tests are not compared (each candidate's
own tests were judged in its run). A pair that cannot be compared (a function not compared, the
budget spent, a tree that cannot be made) does not agree: grouping by behaviour only ever joins.
Pairs are compared in the order the survivors were given, each survivor against the first member
of every group it is not yet in, within `cpu_seconds` in all and an equal share of it per survivor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from lanegate import git
from lanegate.candidates.workspace import Workspace, checkout
from lanegate.diff import Role, classify_diff
from lanegate.errors import LanegateError
from lanegate.lanes.property.changes import compare
from lanegate.lanes.property.revert import MODULE, plan_reverts
from lanegate.policy import Policy
from lanegate.sandbox import open_sandbox

PAIR_SEED = 0  # the inputs a pair is compared on: the same for every batch (reproducible groups)
_IDENTITY = ("-c", "user.name=lanegate", "-c", "user.email=lanegate@localhost")


@dataclass(frozen=True, slots=True)
class Survivor:
    """A candidate that passed: its name in the workspace, its head commit, its source group."""

    name: str
    commit: str
    group: str


@dataclass(frozen=True, slots=True)
class Agreement:
    """Two survivors (by head commit) that answered alike on `inputs` inputs of `functions`."""

    first: str
    second: str
    functions: int
    inputs: int


def same_behaviour(
    space: Workspace,
    survivors: Sequence[Survivor],
    *,
    policy: Policy,
    hidden: tuple[Path, ...],
    cpu_seconds: float,
) -> tuple[Agreement, ...]:
    """The pairs of survivors, from different source groups, that agree (see module)."""
    leaders: list[Survivor] = []  # the first survivor of each group that joined no other
    found: list[Agreement] = []
    spent = 0.0
    # each survivor's comparisons are paid from its own share: one whose functions never finish
    # on the inputs drawn cannot spend what the pairs after it need
    share = cpu_seconds / max(1, len(survivors) - 1)
    for survivor in survivors:
        if any(s.group == survivor.group for s in leaders) or any(
            a.second == survivor.commit for a in found
        ):
            continue
        agreement = None
        own = 0.0
        for leader in leaders:
            if spent >= cpu_seconds or own >= share:
                break
            budget = min(share - own, cpu_seconds - spent)
            agreement, seconds = _compare_pair(space, leader, survivor, policy, hidden, budget)
            spent += seconds
            own += seconds
            if agreement is not None:
                break
        if agreement is not None:
            found.append(agreement)
        else:
            leaders.append(survivor)
    return tuple(found)


def _compare_pair(
    space: Workspace,
    first: Survivor,
    second: Survivor,
    policy: Policy,
    hidden: tuple[Path, ...],
    budget: float,
) -> tuple[Agreement | None, float]:
    """Whether `second` does what `first` does, and the CPU seconds the comparison took."""
    try:
        tree, onto = _second_on_first(space, first, second)
        summary = classify_diff(tree, first.commit, policy, onto)
        plan = plan_reverts(tree, summary, policy)
    except LanegateError:
        return None, 0.0
    paths = {f.path for f in plan.functions if f.qualname != MODULE}
    changed = [c.path for c in summary.with_role(Role.SOURCE, include_deleted=True)]
    if (
        not paths
        or any(s.function == MODULE for s in plan.specs)
        or any(path not in paths for path in changed)
    ):
        return None, 0.0
    share = min(budget, policy.properties.behaviour_cpu_seconds)
    limited = replace(policy, properties=replace(policy.properties, behaviour_cpu_seconds=share))
    try:  # grouping informs a reviewer: a pair the sandbox cannot compare just stays apart
        with open_sandbox(tree, policy.sandbox, hidden=hidden) as sandbox:
            answers = compare(
                tree, summary, plan, (), sandbox=sandbox, policy=limited, seed=PAIR_SEED
            )
    except LanegateError:
        return None, 0.0
    seconds = sum(a.seconds for a in answers.values())
    if not answers or any(a.verdict != "same" for a in answers.values()):
        return None, seconds
    inputs = sum(a.inputs_tried for a in answers.values())
    return Agreement(first.commit, second.commit, len(answers), inputs), seconds


def _second_on_first(space: Workspace, first: Survivor, second: Survivor) -> tuple[Path, str]:
    """A clone holding both heads, checked out at a commit with `second`'s tree and `first` as
    its parent; the clone and that commit."""
    tree = checkout(space, f"pair-{first.name}-{second.name}", second.commit)
    if not git.run_git(tree, "cat-file", "-t", first.commit, check=False).strip():
        git.run_git(
            tree, "fetch", "-q", "--no-tags", str(space.source), f"{first.commit}:refs/heads/first"
        )
    onto = (
        git.run_git(
            tree,
            *_IDENTITY,
            "commit-tree",
            f"{second.commit}^{{tree}}",
            "-p",
            first.commit,
            "-m",
            "lanegate: a candidate's tree on another's",
        )
        .decode()
        .strip()
    )
    git.run_git(tree, "-c", "advice.detachedHead=false", "checkout", "-q", "--detach", onto)
    return tree, onto
