"""`same_syntax` answers exactly what comparing two `ast.dump`s answers.

The trees come from source text drawn over a small grammar that reaches what a dump prints
differently from what `==` says (`1`, `1.0`, `True`; `0.0` and `-0.0` are a unary minus; strings
and bytes alike; positions that differ for the same tree), from the operators' real candidate edits
of the property lane's target module, and from trees built by hand with unset and None fields.
"""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.property.operators import apply_edit, candidates
from lanegate.lanes.property.syntax_equal import same_syntax

TARGET = Path(__file__).resolve().parents[2] / "cases" / "property" / "target" / "ledgermath.py"

ATOMS = st.sampled_from(
    ("x", "y", "0", "1", "1.0", "True", "None", "0.0", "1e400", "'a'", "b'a'", "'1'", "...", "1j")
)


def _expressions() -> st.SearchStrategy[str]:
    return st.recursive(
        ATOMS,
        lambda inner: st.one_of(
            st.tuples(inner, st.sampled_from(("+", "-", "*", "<", "==", "and")), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"
            ),
            inner.map(lambda e: f"(-{e})"),
            st.lists(inner, max_size=3).map(lambda es: f"f({', '.join(es)})"),
            st.lists(inner, max_size=3).map(lambda es: f"[{', '.join(es)}]"),
            inner.map(lambda e: f"({e}).attr"),
        ),
        max_leaves=8,
    )


def _module(expression: str, spaced: bool) -> str:
    pad = "\n\n" if spaced else ""
    return f"{pad}def g(x, y=1):\n    return {expression}\n"


def _agree(left: ast.AST, right: ast.AST) -> None:
    assert same_syntax(left, right) == (ast.dump(left) == ast.dump(right))
    assert same_syntax(right, left) == same_syntax(left, right)


@settings(max_examples=300, deadline=None)
@given(_expressions(), _expressions(), st.booleans())
def test_two_drawn_trees_agree_with_their_dumps(left: str, right: str, spaced: bool) -> None:
    _agree(ast.parse(_module(left, False)), ast.parse(_module(right, spaced)))


@settings(max_examples=100, deadline=None)
@given(_expressions())
def test_a_tree_is_its_own_reprint_at_other_positions(expression: str) -> None:
    here, there = ast.parse(_module(expression, False)), ast.parse(_module(expression, True))
    assert same_syntax(here, there)


def test_every_candidate_edit_of_the_target_agrees_with_the_dumps() -> None:
    source = TARGET.read_bytes()
    tree = ast.parse(source)
    verdicts = set()
    for candidate in candidates(tree, source):
        try:
            mutated = ast.parse(apply_edit(source, candidate.edit))
        except SyntaxError:
            continue
        _agree(tree, mutated)
        verdicts.add(same_syntax(tree, mutated))
    assert verdicts == {False}  # every operator's edit changes the tree


def test_constants_equal_under_eq_but_printed_apart_differ() -> None:
    for left, right in (
        ("1", "1.0"),
        ("1", "True"),
        ("0", "False"),
        ("'a'", "b'a'"),
        ("1.0", "1j"),
    ):
        assert not same_syntax(ast.parse(left), ast.parse(right)), (left, right)


def test_an_unset_field_and_a_none_default_print_alike() -> None:
    unset = ast.Constant(value=1)  # `kind` never assigned
    none = ast.Constant(value=1, kind=None)
    assert ast.dump(unset) == ast.dump(none)
    assert same_syntax(unset, none)
    assert not same_syntax(none, ast.Constant(value=1, kind="u"))
    assert ast.dump(ast.Name(id="x")) != ast.dump(ast.Name(id="x", ctx=ast.Store()))
    assert not same_syntax(ast.Name(id="x"), ast.Name(id="x", ctx=ast.Store()))
