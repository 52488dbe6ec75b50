"""Canary mutants, both ways, on the real worker: an honest suite kills none, a fingerprint kills one.

Every canary's outcome is decided by one forked child with fixed seeds, so each distinct canary is
run once and the 100 draws of a run's secret seed are then evaluated on those outcomes: the same
verdicts 100 separate runs would give, at the cost of one.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path
from types import FunctionType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.property.baseline import pytest_flags, run_baseline
from lanegate.lanes.property.canary import (
    canary_count,
    canary_specs_for_file,
    select_canaries,
)
from lanegate.lanes.property.coverage_map import CoverageMap
from lanegate.lanes.property.mutate_run import MutantJob, run_mutants
from lanegate.lanes.property.operators import apply_edit
from lanegate.lanes.property.plant import MutantSpec, select, specs_for_file
from lanegate.lanes.property.runner import build_jobs
from lanegate.ledgers.models import MutantStatus
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox
from tests.cases.property.hand_mutants import HAND_MUTANTS
from tests.unit.property.test_hand_mutants import _spec

CANARY_TARGET = Path(__file__).resolve().parents[2] / "cases" / "property" / "canary_target"
DIGEST = "sha256:" + "0" * 64
DRAWS = 100
SHAPES = CANARY_TARGET.joinpath("shapes.py").read_bytes()
ALL_LINES = frozenset(range(1, SHAPES.count(b"\n") + 2))


def _canaries(source: bytes, path: str, seed: int) -> list[MutantSpec]:
    return [s for s, _ in canary_specs_for_file(path, source, _lines(source), DIGEST, seed)]


def _lines(source: bytes) -> frozenset[int]:
    return frozenset(range(1, source.count(b"\n") + 2))


def _key(spec: MutantSpec) -> tuple[int, int, str, str]:
    """A canary's identity across seeds (its id depends on the seed, its edit does not)."""
    return (spec.line, spec.column, spec.operator, spec.replacement)


def _draws(source: bytes, path: str, real: int) -> list[list[tuple[int, int, str, str]]]:
    """The canaries each of DRAWS runs plants, as edits: seeds 0..DRAWS-1 of the secret."""
    out = []
    for seed in range(DRAWS):
        found = canary_specs_for_file(path, source, _lines(source), DIGEST, seed)
        out.append([_key(s) for s in select_canaries(found, canary_count(real, len(found)))])
    return out


# --- the families keep behaviour: every canary of the target, executed ---------------------------


def _functions(source: bytes) -> dict[str, Any]:
    space: dict[str, Any] = {}
    exec(compile(source, "shapes.py", "exec"), space)  # noqa: S102 - the proof target itself
    return {k: v for k, v in space.items() if isinstance(v, FunctionType)}


ORIGINAL = _functions(SHAPES)
CANARY_FUNCTIONS = [
    (spec, _functions(apply_edit(SHAPES, spec.edit))) for spec in _canaries(SHAPES, "shapes.py", 1)
]
ints = st.lists(st.integers(-12, 12), max_size=12)


def test_the_target_has_every_family() -> None:
    assert {s.operator for s, _ in CANARY_FUNCTIONS} == {
        "compare",
        "arithmetic",
        "boolean",
        "negate-condition",
        "rename-local",
        "no-op",
    }


@settings(max_examples=60, deadline=None)
@given(ints, ints, st.integers(-30, 30))
def test_every_canary_computes_what_the_original_does(xs: list[int], ys: list[int], n: int) -> None:
    calls = {
        "count_between": (xs, n),
        "padded_length": (xs,),
        "sign": (n,),
        "either_empty": (xs, ys),
    }
    for spec, functions in CANARY_FUNCTIONS:
        for name, args in calls.items():
            assert functions[name](*args) == ORIGINAL[name](*args), (spec.operator, spec.line)


@pytest.mark.parametrize(
    ("source", "why"),
    [
        ("def f(a, b):\n    if a < b:\n        return 1\n    return 0\n", "two names"),
        ("def f(a, b):\n    return a + b\n", "operands of unknown type"),
        ("def f(s):\n    return s + 1\n", "a name, not len()"),
        ("def f(xs):\n    return len(xs) + len(xs)\n", "two calls: order of effects"),
        ("len = max\ndef f(xs):\n    return len(xs) + 1\n", "len rebound in the module"),
        ("def f(a, b):\n    x = a and b\n    return x\n", "a value, not a condition"),
        ("def f(g):\n    if g() < 3:\n        return 1\n", "a call: not a plain operand"),
    ],
)
def test_no_canary_where_equivalence_is_not_proved(source: str, why: str) -> None:
    found = _canaries(source.encode(), "m.py", 3)
    families = {s.operator for s in found} - {"rename-local", "negate-condition", "no-op"}
    assert not families, (why, [(s.operator, s.replacement) for s in found])


@pytest.mark.parametrize(
    "source",
    [
        "def f(n):\n    total = n\n    return locals()['total']\n",
        "def f(n):\n    total = n\n    g = lambda: total\n    return g()\n",
        "def f(n):\n    global total\n    total = n\n    return total\n",
        "def f(n):\n    total = n\n    return eval('total')\n",
        "def f(n):\n    total = n\n    return f'{total}'\n",
    ],
)
def test_no_rename_where_a_name_can_be_read_by_its_text(source: str) -> None:
    assert not [s for s in _canaries(source.encode(), "m.py", 3) if s.operator == "rename-local"]


def test_parameters_are_never_renamed() -> None:
    found = _canaries(b"def f(n):\n    n = n + 1\n    return n\n", "m.py", 3)
    assert not [s for s in found if s.operator == "rename-local"]


def test_a_draw_depends_on_the_secret_seed() -> None:
    draws = _draws(SHAPES, "shapes.py", real=12)
    assert len({tuple(d) for d in draws}) > 10
    assert all(len(d) == canary_count(12, len(CANARY_FUNCTIONS)) for d in draws)


# --- the real worker -------------------------------------------------------------------------------


def _run(
    target: Path, jobs: list[MutantJob], property_tests: frozenset[str], order_seed: int = 0
) -> dict[str, MutantStatus]:
    policy = load_policy(target)
    sandbox = open_sandbox(target)
    results, problem = run_mutants(
        target,
        jobs,
        pytest_flags(policy),
        property_tests,
        workers=2,
        sandbox=sandbox,
        order_seed=order_seed,
    )
    assert problem is None
    return {r.id: r.status for r in results}


def test_honest_suite_kills_no_canary_in_100_draws(target_copy: Path) -> None:
    """ledgermath's hand-labelled mutants and every canary of the file, shuffled together: each
    label holds, no canary is killed, so none of 100 draws of canaries is."""
    policy = load_policy(target_copy)
    source = (target_copy / "ledgermath.py").read_bytes()
    hand = [_spec(name, source, find, replace) for name, find, replace, _, _ in HAND_MUTANTS]
    canaries = _canaries(source, "ledgermath.py", 0)
    assert len(canaries) >= 6
    sandbox = open_sandbox(target_copy)
    baseline = run_baseline(target_copy, policy, [target_copy / "ledgermath.py"], sandbox=sandbox)
    property_tests = frozenset(t for t in baseline.tests if "test_ledgermath.py" in t)
    jobs = build_jobs(
        target_copy,
        [*hand, *canaries],
        {"ledgermath.py": source},
        CoverageMap.from_record(baseline.tests),
        baseline.tests,
        property_tests,
        baseline.overhead,
    )
    statuses = _run(target_copy, jobs, property_tests, order_seed=7)
    want = {s.id: status for s, (_, _, _, status, _) in zip(hand, HAND_MUTANTS, strict=True)}
    assert {i: str(statuses[i]) for i in want} == want
    by_key = {_key(c): statuses[c.id] for c in canaries}
    assert set(by_key.values()) <= {MutantStatus.SURVIVED, MutantStatus.NO_TESTS}
    assert MutantStatus.SURVIVED in by_key.values()
    killed = [
        k
        for draw in _draws(source, "ledgermath.py", len(hand))
        for k in draw
        if by_key[k] not in (MutantStatus.SURVIVED, MutantStatus.NO_TESTS)
    ]
    assert killed == []
    assert (target_copy / "ledgermath.py").read_bytes() == source


FINGERPRINTS = ("test_file_on_disk", "test_getsource", "test_code_hash", "test_co_code")


@pytest.fixture
def shapes_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "canary_target"
    shutil.copytree(CANARY_TARGET, dest, ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def test_every_fingerprint_kills_a_canary_in_each_of_100_draws(shapes_copy: Path) -> None:
    """Each fingerprinting test (the file on disk, inspect.getsource, a code hash, co_code) is run
    alone against every canary; in every one of 100 draws it kills at least one planted canary."""
    canaries = _canaries(SHAPES, "shapes.py", 0)
    path = shapes_copy / "shapes.py"
    jobs = [
        MutantJob(
            f"{spec.id}/{fp}",
            path,
            apply_edit(SHAPES, spec.edit).decode(),
            (f"fingerprints/test_fingerprints.py::{fp}",),
            60.0,
            spec.function,
            spec.function_line,
            original=SHAPES.decode(),
        )
        for spec in canaries
        for fp in FINGERPRINTS
    ]
    tests = frozenset(f"fingerprints/test_fingerprints.py::{fp}" for fp in FINGERPRINTS)
    statuses = _run(shapes_copy, jobs, tests)
    for fp in FINGERPRINTS:
        killed = {_key(c) for c in canaries if statuses[f"{c.id}/{fp}"] is MutantStatus.KILLED}
        assert killed, fp
        missed = [d for d in _draws(SHAPES, "shapes.py", real=12) if not killed & set(d)]
        assert not missed, (fp, len(missed))
    # what each one sees: the file and getsource see every canary, co_code the re-ordered ones
    on_disk = {
        _key(c) for c in canaries if statuses[f"{c.id}/test_file_on_disk"] is MutantStatus.KILLED
    }
    assert on_disk == {_key(c) for c in canaries}
    assert path.read_bytes() == SHAPES  # the copy the worker changed was the sandbox's own


def test_honest_shapes_suite_kills_no_canary(shapes_copy: Path) -> None:
    policy = load_policy(shapes_copy)
    sandbox = open_sandbox(shapes_copy)
    baseline = run_baseline(shapes_copy, policy, [shapes_copy / "shapes.py"], sandbox=sandbox)
    assert baseline.exit_code == 0
    canaries = _canaries(SHAPES, "shapes.py", 0)
    real = select(specs_for_file("shapes.py", SHAPES, ALL_LINES, DIGEST, 0), 12, 0)
    property_tests = frozenset(t for t in baseline.tests if "test_shapes.py" in t)
    jobs = build_jobs(
        shapes_copy,
        [*real, *canaries],
        {"shapes.py": SHAPES},
        CoverageMap.from_record(baseline.tests),
        baseline.tests,
        property_tests,
        baseline.overhead,
    )
    statuses = _run(shapes_copy, jobs, property_tests, order_seed=3)
    assert {statuses[c.id] for c in canaries} == {MutantStatus.SURVIVED}
    assert sum(statuses[m.id] is MutantStatus.KILLED for m in real) >= len(real) - 2


def test_canary_sources_parse_like_the_original() -> None:
    """Every canary of the target is a valid module with the same functions at the same lines."""
    names = {n.name: n.lineno for n in ast.parse(SHAPES).body if isinstance(n, ast.FunctionDef)}
    for spec in _canaries(SHAPES, "shapes.py", 5):
        tree = ast.parse(apply_edit(SHAPES, spec.edit))
        assert {n.name: n.lineno for n in tree.body if isinstance(n, ast.FunctionDef)} == names
