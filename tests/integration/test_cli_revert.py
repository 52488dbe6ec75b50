"""Revert mutants on the real workers: `lanegate property` on a real git repository, real pytest runs."""

from __future__ import annotations

from collections.abc import Callable

from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import MutantStatus, PropertyLedger
from tests.gitrepo import Repo
from tests.integration.test_cli_property import _lanegate

BASE = """def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return lo
    return x


def scale(values, factor=1):
    return [v * factor for v in values]


def halve(x):
    return x // 2
"""
# clamp: a real fix (pinned by a test that fails at base); scale: a new default that changes what
# every existing caller gets, with a test that always passes `factor` (the base "fails" it only
# with a TypeError at the call); halve: a wrong change whose new test is true of both versions
HEAD = """def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def scale(values, factor=2, *, offset=0):
    return [v * factor + offset for v in values]


def halve(x):
    return x >> 1 if x > 10 else x // 2 + 1
"""
TESTS = """from hypothesis import given, strategies as st

from lanegate import oracles
from lib import clamp, halve, scale


@given(st.integers(), st.integers(0, 10))
def test_clamp_stays_in_range(x, width):
    oracles.idempotent(lambda v: clamp(v, 0, width), x)
    assert clamp(width + 1, 0, width) == width


@given(st.lists(st.integers(-5, 5)))
def test_scale_with_offset(values):
    oracles.invariant(lambda v: scale(v, 1, offset=0), len, values)


@given(st.integers(0, 100))
def test_halve_is_small(x):
    oracles.ordered([halve(x), x + 1])
"""


def test_reverts_run_as_mutants_and_each_kill_keeps_its_cause(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = make_repo("lib")
    repo.write("lib.py", BASE)
    repo.write("lanegate.toml", "[properties]\nmax_examples = 30\nmax_mutants = 4\n")
    repo.write("tests/__init__.py", "")
    repo.commit("base")
    repo.branch("feature")
    repo.write("lib.py", HEAD)
    repo.write("tests/test_lib.py", TESTS)
    repo.commit("feature")
    run = _lanegate(repo.path, "property", "--base", "main", "--out", "out", "--quiet")
    ledger = load_file(PropertyLedger, "property", repo.path / "out" / "property.json").value
    assert ledger.schema_version == 2
    by_name = {c.qualname: c for c in ledger.changed_functions}
    assert set(by_name) == {"clamp", "scale", "halve"}
    mutants = {m.id: m for m in ledger.mutants}
    # the fix: its revert (the base's `x > hi`) fails the new test, which the ledger names
    clamp = by_name["clamp"]
    (revert,) = (mutants[i] for i in clamp.reverts)
    assert revert.status is MutantStatus.KILLED and revert.detail.startswith("AssertionError")
    assert (clamp.revert_verdict, clamp.revert_killed_by) == ("pinned", revert.killed_by)
    # the new default: the revert (imported afresh: its `def` differs) is "killed" only by the call
    # the base cannot take, which pins nothing
    scale = by_name["scale"]
    (revert,) = (mutants[i] for i in scale.reverts)
    assert "unexpected keyword argument 'offset'" in revert.detail
    assert scale.revert_verdict == "call-shape"
    # the wrong change: its new test holds at base too, so the revert survives
    halve = by_name["halve"]
    assert halve.revert_verdict == "not-killed"
    assert all(mutants[i].status is MutantStatus.SURVIVED for i in halve.reverts)
    # the scorer's verdicts: the wrong change fails with its examples; the new default is judged
    # at the call shapes both versions accept, where a call that leaves `factor` out (as every
    # existing caller may) gets 1 at base and 2 at head
    assert run.returncode == 1, run.stderr
    assert "[property-change-untested] lib.py::halve:" in run.stdout
    assert "halve(0): base 0, head 1" in run.stdout
    (scale_line,) = (line for line in run.stdout.splitlines() if "] lib.py::scale:" in line)
    assert "[property-change-untested]" in scale_line, run.stdout
    assert "judged at the call shapes both versions accept" in scale_line
    assert "scale([-2]): base [-2], head [-4]" in scale_line
    assert "clamp" not in "".join(
        line for line in run.stdout.splitlines() if "[property-change" in line
    )
