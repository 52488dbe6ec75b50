"""Mutation operators and diff-scoped planting: valid edits, no string noise, stable capped selection."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.property import plan_mutants
from lanegate.lanes.property.operators import apply_edit, candidates, original_text
from lanegate.lanes.property.plant import MAX_PER_LINE
from lanegate.policy import load_policy
from tests.gitrepo import Repo

TARGET = Path(__file__).resolve().parents[2] / "cases" / "property" / "target" / "ledgermath.py"

names = st.sampled_from(["a", "b", "xs[i]", "(a)", "f(a, 2)"])
ops = st.sampled_from(
    ["+", "-", "*", "//", "%", "<", "<=", "==", "!=", "and", "or", "is not", "in"]
)


@st.composite
def expressions(draw: st.DrawFn) -> str:
    parts = [draw(names)]
    for _ in range(draw(st.integers(1, 3))):
        parts += [draw(ops), draw(st.one_of(names, st.integers(0, 9).map(str)))]
    return " ".join(parts)


@settings(derandomize=True, max_examples=60)
@given(expressions())
def test_every_edit_compiles_and_changes_the_ast(expr: str) -> None:
    source = f"def f(a, b, xs, i):\n    if {expr}:\n        return {expr}  # {expr} < >\n    return 1\n".encode()
    tree = ast.parse(source)
    found = candidates(tree, source)
    assert found
    for cand in found:
        mutated = apply_edit(source, cand.edit)
        assert ast.dump(ast.parse(mutated)) != ast.dump(tree), cand
        assert cand.function_line == 1 and cand.function == "f"


def test_no_string_literal_or_docstring_or_logging_mutants() -> None:
    source = (
        b'"""mod doc"""\nimport logging\n\ndef f(x):\n    """doc 1"""\n'
        b'    logging.info("a %d", 1)\n    return f"{x + 1}" + "s"\n'
    )
    edits = [c.edit for c in candidates(ast.parse(source), source)]
    assert [(e.operator, original_text(source, e)) for e in edits] == [
        ("return-default", 'f"{x + 1}" + "s"')
    ]


def _repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("lib")
    text = TARGET.read_text(encoding="utf-8")
    repo.write("ledgermath.py", text.replace("return x * 3", "return x"))
    repo.commit("base")
    repo.branch("feature")
    repo.write("ledgermath.py", text)
    repo.write("lanegate.toml", "[properties]\nmax_mutants = 40\n")
    repo.commit("change")
    return repo


def test_plan_only_changed_lines_capped_and_stable(make_repo: Callable[[str], Repo]) -> None:
    repo = _repo(make_repo)
    policy = load_policy(repo.path)
    first = plan_mutants(repo.path, "main", policy)
    second = plan_mutants(repo.path, "main", policy)
    assert [m.id for m in first] == [m.id for m in second]
    changed = TARGET.read_text(encoding="utf-8").splitlines().index("    return x * 3") + 1
    assert first and {m.line for m in first} == {changed}
    assert len(first) <= MAX_PER_LINE
    assert all(m.id.startswith("m-") and len(m.id) == 18 for m in first)
    other_seed = plan_mutants(repo.path, "main", policy, seed=7)
    assert {m.id for m in other_seed}.isdisjoint({m.id for m in first})


def test_plan_respects_max_mutants(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("lib")
    repo.write("README", "x")
    repo.commit("base")
    repo.branch("feature")
    repo.write("ledgermath.py", TARGET.read_text(encoding="utf-8"))
    repo.write("tests/test_x.py", "def test_a():\n    assert 1 + 1 == 2\n")
    repo.commit("add")
    policy = load_policy(repo.path)
    planted = plan_mutants(repo.path, "main", policy)
    assert len(planted) == policy.properties.max_mutants
    assert all(m.path == "ledgermath.py" for m in planted)
    per_line: dict[int, int] = {}
    for m in planted:
        per_line[m.line] = per_line.get(m.line, 0) + 1
    assert max(per_line.values()) <= MAX_PER_LINE
