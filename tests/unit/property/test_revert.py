"""Revert mutants: which base versions a diff plants into the head, on real git repositories."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from lanegate.diff import classify_diff
from lanegate.lanes.property.changes import merge as merge_changes
from lanegate.lanes.property.operators import apply_edit
from lanegate.lanes.property.plant import plan_mutants
from lanegate.lanes.property.revert import RevertPlan, is_revert, plan_reverts, reverted_lines
from lanegate.ledgers.models import (
    BehaviourDifference,
    ChangeEvidence,
    KillKind,
    Mutant,
    MutantStatus,
)
from lanegate.policy import load_policy
from lanegate.scoring.property_rules import revert_verdict
from tests.gitrepo import Repo

BASE = '''"""A module."""
import os

LIMIT = 10


def clamp(x, lo, hi):
    """Clamp x."""
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def total(a, b):
    s = a + b
    s = s * 2
    if s > 100:
        s = 100
    return s - 1


class Cache:
    def get(self, key, default=None):
        if key is None:
            raise ValueError("key")
        return default


def helper(x):
    return x


def kept(x):
    return x + 1
'''


def _plan(
    make_repo: Callable[[str], Repo],
    head: str,
    extra: dict[str, str] | None = None,
    base: str = BASE,
) -> tuple[Repo, RevertPlan]:
    repo = make_repo("repo")
    repo.write("lanegate.toml", '[properties]\nsource_dirs = ["src"]\n')
    repo.write("src/m.py", base)
    repo.commit("base")
    repo.branch("feature")
    repo.write("src/m.py", head)
    for path, text in (extra or {}).items():
        repo.write(path, text)
    repo.commit("head")
    policy = load_policy(repo.path)
    summary = classify_diff(repo.path, "main", policy)
    return repo, plan_reverts(repo.path, summary, policy)


def _reverted(repo: Repo, plan: RevertPlan, ident: str) -> str:
    spec = next(s for s in plan.specs if s.id == ident)
    return apply_edit((repo.path / spec.path).read_bytes(), spec.edit).decode()


def test_a_changed_body_plants_the_base_function_whole(make_repo: Callable[[str], Repo]) -> None:
    head = BASE.replace(
        "    if x > hi:\n        return hi\n", "    if x >= hi:\n        return lo\n"
    )
    repo, plan = _plan(make_repo, head)
    assert [(s.operator, s.function, s.hot) for s in plan.specs] == [("revert", "clamp", True)]
    assert _reverted(repo, plan, plan.specs[0].id) == BASE  # the head with clamp put back
    [changed] = plan.functions
    assert (changed.qualname, changed.base_qualname, changed.matched) == ("clamp", "clamp", "same")
    assert (
        plan.specs[0].function_line
        == changed.first_line
        == head.splitlines().index("def clamp(x, lo, hi):") + 1
    )


def test_independent_hunks_get_a_revert_each(make_repo: Callable[[str], Repo]) -> None:
    head = BASE.replace("    s = a + b\n", "    s = a - b\n").replace(
        "        s = 100\n", "        s = 99\n"
    )
    repo, plan = _plan(make_repo, head)
    assert sorted(s.operator for s in plan.specs) == ["revert", "revert-hunk", "revert-hunk"]
    hunks = [s for s in plan.specs if s.operator == "revert-hunk"]
    one = _reverted(repo, plan, hunks[0].id)
    assert "s = a + b" in one and "s = 99" in one  # the first hunk alone back to the base


def test_a_pure_deletion_is_reverted(make_repo: Callable[[str], Repo]) -> None:
    head = BASE.replace('        if key is None:\n            raise ValueError("key")\n', "")
    repo, plan = _plan(make_repo, head)
    [spec] = plan.specs
    assert (spec.operator, spec.function) == ("revert", "Cache.get")
    assert 'raise ValueError("key")' in _reverted(repo, plan, spec.id)


def test_a_changed_default_is_imported_afresh(make_repo: Callable[[str], Repo]) -> None:
    """A revert that changes what the `def` makes (its defaults) cannot be a `__code__` swap."""
    head = BASE.replace("def get(self, key, default=None):", "def get(self, key, default=0):")
    _, plan = _plan(make_repo, head)
    [spec] = plan.specs
    assert spec.function == "Cache.get" and not spec.hot


def test_docstrings_comments_and_imports_plant_nothing(make_repo: Callable[[str], Repo]) -> None:
    head = (
        BASE.replace('"""Clamp x."""', '"""Clamp x into [lo, hi]."""')
        .replace("    return x + 1\n", "    return x + 1  # one more\n")
        .replace("import os\n", "import os\nimport sys\n")
        .replace('"""A module."""', '"""A module of helpers."""')
    )
    _, plan = _plan(make_repo, head)
    assert plan.specs == () and plan.functions == ()


def test_a_module_constant_is_reverted(make_repo: Callable[[str], Repo]) -> None:
    repo, plan = _plan(make_repo, BASE.replace("LIMIT = 10", "LIMIT = 12"))
    [spec] = plan.specs
    assert (spec.operator, spec.function, spec.function_line, spec.hot) == (
        "revert-module",
        "<module>",
        0,
        False,
    )
    assert "LIMIT = 10" in _reverted(repo, plan, spec.id)


def test_a_renamed_function_is_matched_and_keeps_the_new_name(
    make_repo: Callable[[str], Repo],
) -> None:
    head = BASE.replace("def total(a, b):", "def grand_total(a, b):").replace(
        "    return s - 1\n", "    return s + 1\n"
    )
    repo, plan = _plan(make_repo, head)
    [changed] = plan.functions
    assert (changed.qualname, changed.base_qualname, changed.matched) == (
        "grand_total",
        "total",
        "renamed",
    )
    reverted = _reverted(repo, plan, plan.specs[0].id)
    assert "def grand_total(a, b):" in reverted and "return s - 1" in reverted


def test_a_moved_function_is_matched_across_files(make_repo: Callable[[str], Repo]) -> None:
    head = BASE.replace("def helper(x):\n    return x\n", "")
    moved = "def helper(x):\n    return -x\n"
    _, plan = _plan(make_repo, head, {"src/other.py": moved})
    [changed] = plan.functions
    assert (changed.path, changed.base_path, changed.matched) == (
        "src/other.py",
        "src/m.py",
        "moved",
    )


def test_an_ambiguous_rename_is_not_matched(make_repo: Callable[[str], Repo]) -> None:
    """Two new functions alike the one that is gone: no match, no revert."""
    head = BASE.replace(
        "def helper(x):\n    return x\n", "def h1(x):\n    return x\n\n\ndef h2(x):\n    return x\n"
    )
    _, plan = _plan(make_repo, head)
    assert plan.functions == ()


def test_a_revert_that_does_not_compile_is_recorded(make_repo: Callable[[str], Repo]) -> None:
    """A hunk revert that needs its neighbour does not compile: recorded, not planted."""
    base = (
        "def f(x):\n    try:\n        y = 1\n    except ValueError:\n        y = 2\n    return y\n"
    )
    head = "def f(x):\n    if x:\n        y = 1\n    else:\n        y = 2\n    return y\n"
    _, plan = _plan(make_repo, head, base=base)
    assert [s.operator for s in plan.specs] == ["revert"]
    assert [(p.function, p.line) for p in plan.problems] == [("f", 2), ("f", 4)]
    assert all("does not compile" in p.what for p in plan.problems)


def test_reverts_ride_every_plan_whatever_the_draw(make_repo: Callable[[str], Repo]) -> None:
    head = BASE.replace(
        "    if x > hi:\n        return hi\n", "    if x >= hi:\n        return lo\n"
    )
    repo, plan = _plan(make_repo, head)
    policy = load_policy(repo.path)
    for draw in (1, 2, 3):
        planned = plan_mutants(repo.path, "main", policy, draw=draw)
        assert [s.id for s in planned if is_revert(s.operator)] == [s.id for s in plan.specs]


def _mutant(ident: str, operator: str, status: str, killer: str | None, detail: str) -> Mutant:
    killed = status == "killed"
    return Mutant(
        id=ident,
        operator=operator,
        path="src/m.py",
        line=7,
        column=0,
        original="def f(): ...",
        replacement="def f(): ...",
        status=MutantStatus(status),
        killed_by=killer,
        kill_kind=KillKind.UNIT if killed else None,
        function="f",
        detail=detail,
    )


@pytest.mark.parametrize(
    ("reverts", "verdict"),
    [
        ([("revert", "killed", "t", "AssertionError: assert 1 == 2")], "pinned"),
        ([("revert", "survived", None, "")], "not-killed"),
        ([("revert", "no_tests", None, "")], "not-killed"),
        # the base's code names a helper the head removed: it cannot run here, pins nothing
        ([("revert", "killed", "t", "NameError: name '_old' is not defined")], "not-run"),
        (
            [
                (
                    "revert",
                    "killed",
                    "t",
                    "TypeError: f() missing 1 required positional argument: 'y'",
                )
            ],
            "call-shape",
        ),
        (
            [("revert", "killed", "t", "collection: ImportError: cannot import name 'g' from 'm'")],
            "call-shape",
        ),
        # a TypeError the function itself raises is a behaviour, not a call shape
        ([("revert", "killed", "t", "TypeError: unsupported operand type(s) for +")], "pinned"),
        ([("revert", "killed", "canary-killer", "AssertionError")], "not-killed"),
        (
            [("revert", "killed", "t", "AssertionError"), ("revert-hunk", "survived", None, "")],
            "partly-pinned",
        ),
        (
            [
                ("revert", "killed", "t", "AssertionError"),
                ("revert-hunk", "killed", "t", "NameError: name 'y' is not defined"),
            ],
            "pinned",
        ),
    ],
)
def test_revert_verdicts(reverts: list[tuple[str, str, str | None, str]], verdict: str) -> None:
    mutants = {
        f"m-{n:012x}": _mutant(f"m-{n:012x}", op, status, killer, detail)
        for n, (op, status, killer, detail) in enumerate(reverts)
    }
    change = ChangeEvidence(
        path="src/m.py",
        qualname="f",
        base_path="src/m.py",
        base_qualname="f",
        reverts=tuple(mutants),
        revert_verdict="",
        revert_killed_by=None,
        inputs_tried=0,
        behaviour_reason="",
        behaviour_seconds=0.0,
    )
    assert revert_verdict(change, mutants, frozenset({"canary-killer"}))[0] == verdict


def test_sharded_changes_merge_their_reverts_and_keep_a_found_difference() -> None:
    """Each shard lists the reverts of its slice and ran the behaviour diff with its own seed."""
    whole = _mutant("m-000000000001", "revert", "killed", "t", "AssertionError")
    hunk = _mutant("m-000000000002", "revert-hunk", "survived", None, "")
    first = ChangeEvidence(
        path="src/m.py",
        qualname="f",
        base_path="src/m.py",
        base_qualname="f",
        reverts=(whole.id,),
        revert_verdict="pinned",
        revert_killed_by="t",
        behaviour="same",
        inputs_tried=10,
        behaviour_reason="",
        behaviour_seconds=0.1,
    )
    second = dataclasses.replace(
        first,
        reverts=(hunk.id,),
        revert_verdict="not-killed",
        revert_killed_by=None,
        behaviour="differs",
        differences=(BehaviourDifference(call="f(1)", base="1", head="2"),),
    )
    (merged,) = merge_changes([(first,), (second,)], [whole, hunk], [])
    assert merged.reverts == (whole.id, hunk.id)
    assert (merged.revert_verdict, merged.behaviour) == ("partly-pinned", "differs")


def test_a_constant_only_pinned_functions_read_is_covered_by_their_reverts(
    make_repo: Callable[[str], Repo],
) -> None:
    head = BASE.replace(
        "LIMIT = 10\n", 'LIMIT = 10\nMARK = "\\u2026"\nSHARED = "x"\nALIAS = SHARED\n'
    )
    head = head.replace(
        "    return x\n\n\ndef total", "    return str(x) + MARK + SHARED\n\n\ndef total"
    )
    repo, plan = _plan(make_repo, head)
    source = (repo.path / "src/m.py").read_bytes()
    lines = head.splitlines()
    mark, shared = lines.index('MARK = "\\u2026"') + 1, lines.index('SHARED = "x"') + 1
    covered = reverted_lines(plan, {("src/m.py", "clamp")}, {"src/m.py": source})["src/m.py"]
    assert mark in covered and shared not in covered  # SHARED is read at module level too
    assert (
        reverted_lines(plan, set(), {"src/m.py": source}) == {}
    )  # nothing pinned, nothing covered


def test_a_named_threshold_on_a_changed_line_seeds_its_value(
    make_repo: Callable[[str], Repo],
) -> None:
    """`if s > LIMIT` is a boundary at LIMIT's value, as `if s > 10` is at 10: the behaviour
    diff's seeds hold it, folded from the source (never imported)."""
    base = BASE.replace("LIMIT = 10\n", "KB = 1024\nLIMIT = 2 ** 4 * KB\n").replace(
        "    if s > 100:\n", "    if s > LIMIT:\n"
    )
    head = base.replace("    if s > LIMIT:\n", "    if s >= LIMIT:\n")
    _, plan = _plan(make_repo, head, base=base)
    [changed] = plan.functions
    assert changed.qualname == "total"
    assert "16384" in changed.literals


def test_a_function_defined_in_an_if_block_is_reverted(make_repo: Callable[[str], Repo]) -> None:
    base = BASE + "\n\nif os.name:\n\n    def guarded(x):\n        return x + 1\n"
    head = base.replace("        return x + 1\n", "        return x + 2\n")
    repo, plan = _plan(make_repo, head, base=base)
    [spec] = plan.specs
    assert (spec.operator, spec.function) == ("revert", "guarded")
    assert _reverted(repo, plan, spec.id) == base


def test_an_import_that_rebinds_a_function_is_a_changed_function(
    make_repo: Callable[[str], Repo],
) -> None:
    """`from m2 import helper` at the end of the module: helper's def is unchanged, but the name
    now means another function (a blind red team's wrong head passed this way)."""
    head = BASE + "\n\nfrom src.fast import helper  # noqa: E402\n"
    _, plan = _plan(make_repo, head, extra={"src/fast.py": "def helper(x):\n    return -x\n"})
    rebound = [f for f in plan.functions if f.matched == "rebound"]
    assert [(f.path, f.qualname, f.base_qualname) for f in rebound] == [
        ("src/m.py", "helper", "helper")
    ]
    assert (
        rebound[0].first_line
        == head.splitlines().index("from src.fast import helper  # noqa: E402") + 1
    )
