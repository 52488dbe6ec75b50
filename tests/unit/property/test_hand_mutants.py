"""The lane's mutant runner agrees with every hand-written label (killed/survived/timeout/no_tests)."""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

from lanegate.lanes.property.baseline import pytest_flags, run_baseline
from lanegate.lanes.property.coverage_map import CoverageMap
from lanegate.lanes.property.mutate_run import run_mutants
from lanegate.lanes.property.operators import Edit
from lanegate.lanes.property.plant import MutantSpec
from lanegate.lanes.property.runner import build_jobs
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox
from tests.cases.property.hand_mutants import HAND_MUTANTS


def _function(tree: ast.Module, line: int) -> tuple[str, int]:
    """(name, first line) of the top-level function holding `line` (the target has no classes)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.lineno <= line <= (node.end_lineno or 0):
            return node.name, min([node.lineno, *(d.lineno for d in node.decorator_list)])
    return "<module>", 0


def _spec(name: str, source: bytes, find: str, replace: str) -> MutantSpec:
    text = source.decode()
    assert text.count(find) == 1, f"{name}: {find!r} must occur exactly once"
    offset = text.index(find)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1)
    end = offset + len(find)
    end_line = text.count("\n", 0, end) + 1
    end_column = end - (text.rfind("\n", 0, end) + 1)
    edit = Edit("hand", line, column, end_line, end_column, replace)
    ident = "m-" + hashlib.sha256(name.encode()).hexdigest()[:16]
    tree = ast.parse(source)
    function, first = _function(tree, line)
    return MutantSpec(ident, "ledgermath.py", edit, find, function, first)


def test_every_hand_written_label_holds(target_copy: Path) -> None:
    assert len(HAND_MUTANTS) >= 20
    policy = load_policy(target_copy)
    source = (target_copy / "ledgermath.py").read_bytes()
    specs = [_spec(name, source, find, replace) for name, find, replace, _, _ in HAND_MUTANTS]
    sandbox = open_sandbox(target_copy)
    baseline = run_baseline(target_copy, policy, [target_copy / "ledgermath.py"], sandbox=sandbox)
    assert baseline.exit_code == 0, baseline.record
    coverage = CoverageMap.from_record(baseline.tests)
    property_tests = frozenset(t for t in baseline.tests if "test_ledgermath.py" in t)
    jobs = build_jobs(
        target_copy,
        specs,
        {"ledgermath.py": source},
        coverage,
        baseline.tests,
        property_tests,
        baseline.overhead,
    )
    results, problem = run_mutants(
        target_copy, jobs, pytest_flags(policy), property_tests, workers=2, sandbox=sandbox
    )
    assert problem is None
    got = {
        name: (str(r.status), None if r.kill_kind is None else str(r.kill_kind))
        for (name, *_), r in zip(HAND_MUTANTS, results, strict=True)
    }
    want = {name: (status, kind) for name, _, _, status, kind in HAND_MUTANTS}
    wrong = {name: (got[name], want[name]) for name in want if got[name] != want[name]}
    assert not wrong, f"(got, want) per mutant: {wrong}"
    # the user's file was never rewritten
    assert (target_copy / "ledgermath.py").read_bytes() == source
