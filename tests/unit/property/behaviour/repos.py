"""Real repositories for the behaviour diff's tests: a base commit and a head commit built in tmp."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lanegate.lanes.property.behaviour import (
    BehaviourRequest,
    ChangedFunction,
    FunctionBehaviour,
    diff_behaviour,
)
from lanegate.policy import Policy
from lanegate.sandbox import open_sandbox
from tests.gitrepo import Repo


def build(path: Path, base: dict[str, str], head: dict[str, str]) -> tuple[Repo, str, str]:
    """A repository whose `main` holds `base`, then a commit on top holding `head` (checked out)."""
    repo = Repo(path)
    for name, text in base.items():
        repo.write(name, text)
    first = repo.commit("base")
    for name, text in head.items():
        repo.write(name, text)
    return repo, first, repo.commit("head")


def compare(
    repo: Repo,
    base: str,
    head: str,
    functions: Sequence[ChangedFunction],
    *,
    tests: Sequence[str] = (),
    cpu_seconds: float = 600.0,
    seed: int = 0,
    max_examples: int = 60,
) -> dict[str, FunctionBehaviour]:
    """Run the engine in the real sandbox; results by qualified name."""
    policy = Policy()
    request = BehaviourRequest(
        repo=repo.path,
        base=base,
        head=head,
        functions=tuple(functions),
        tests=tuple(tests),
        cpu_seconds=cpu_seconds,
        seed=seed,
        max_examples=max_examples,
    )
    with open_sandbox(repo.path, policy.sandbox) as sandbox:
        found = diff_behaviour(request, sandbox=sandbox, policy=policy)
    assert [f.qualname for f in found] == [f.qualname for f in functions]
    return {f.qualname: f for f in found}


def same_place(
    path: str, *names: str, literals: dict[str, tuple[str, ...]] | None = None
) -> list[ChangedFunction]:
    """Changed functions that did not move."""
    given = literals or {}
    return [ChangedFunction(path, n, path, n, given.get(n, ())) for n in names]
