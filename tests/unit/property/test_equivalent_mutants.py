"""Equivalent mutants are never planted: an edit that cannot change what the code computes counts
against an honest diff's budget as if its tests were weak. Each exempted shape is checked to be
equivalent by running it, and each near miss keeps its mutants."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from lanegate.lanes.property.operators import apply_edit, candidates, original_text

PICKS = b"""\
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence


def larger(a, b):
    return a if a > b else b


def smaller(a, b):
    if a <= b:
        return a
    return b


def smaller_else(a, b):
    if b < a:
        return b
    else:
        return a


def clamp(x, hi):
    if x > hi:
        x = hi
    return x


def widest(names):
    if not names:
        return -1
    return max((len(n) for n in names), default=0)


def first_or_zero(names):
    if len(names) == 0:
        raise ValueError("no names")
    return min(names, default=0)


def literal(a):
    return max([a, 3], default=7)
"""

NEAR_MISSES = b"""\
def not_an_operand(a, b):
    return a if a > b else 0


def other_operands(a, b, c):
    if a > b:
        return a
    return c


def reached(names):
    return max((len(n) for n in names), default=0)


def rebound(names):
    if not names:
        return -1
    names = [n for n in names if n]
    return max(names, default=0)


def filtered(names):
    if not names:
        return -1
    return max((len(n) for n in names if n), default=0)


def still_a_boundary(a, b):
    return a if a >= b else a + 1
"""


def _edits(source: bytes) -> list[tuple[str, str, str, int]]:
    return [
        (c.function, c.edit.operator, original_text(source, c.edit), c.edit.line)
        for c in candidates(ast.parse(source), source)
    ]


def test_an_edit_that_cannot_change_the_result_is_no_candidate() -> None:
    edits = _edits(PICKS)
    boundary = ("<", "<=", ">", ">=")
    assert not [e for e in edits if e[1] == "compare" and e[2] in boundary], edits
    assert [e[0] for e in edits if e[1] == "compare"] == ["first_or_zero"]  # the guard's `==`
    fallbacks = {i + 1 for i, line in enumerate(PICKS.splitlines()) if b"default=" in line}
    assert not [e for e in edits if e[3] in fallbacks and e[2] in ("0", "7")], edits
    assert not [e for e in edits if e[1] == "negate-condition" and e[2] == "TYPE_CHECKING"]
    # what still differs is still planted: negated picks, the guards' own values
    negated = {e[0] for e in edits if e[1] == "negate-condition"}
    assert {"larger", "smaller", "smaller_else", "clamp", "widest"} <= negated
    assert any(e[0] == "widest" and e[2] == "1" for e in edits)  # the guard's answer, -1
    assert any(e[0] == "literal" and e[2] == "3" for e in edits)


def test_near_misses_keep_their_mutants() -> None:
    edits = _edits(NEAR_MISSES)
    compared = {e[0] for e in edits if e[1] == "compare"}
    assert {"not_an_operand", "other_operands", "still_a_boundary"} <= compared
    defaults = {e[0] for e in edits if e[1].startswith("constant") and e[2] == "0"}
    assert {"reached", "rebound", "filtered"} <= defaults


def _functions(source: bytes) -> dict[str, Callable[..., Any]]:
    space: dict[str, Any] = {}
    exec(compile(source, "<m>", "exec"), space)  # noqa: S102 - the test's own module text
    return space


@given(st.integers(-3, 3), st.integers(-3, 3), st.lists(st.text(max_size=3), max_size=3))
def test_the_exempted_edits_are_equivalent(a: int, b: int, names: list[str]) -> None:
    # every edit the exemptions drop, applied alone, computes what the original computes
    tree = ast.parse(PICKS)
    kept = {(c.edit.line, c.edit.column, c.edit.operator) for c in candidates(tree, PICKS)}
    original = _functions(PICKS)
    dropped = _dropped(PICKS, kept)
    assert len(dropped) >= 10  # 8 boundary swaps, the defaults' +-1
    for edit in dropped:
        mutant = _functions(apply_edit(PICKS, edit))
        for name, args in (
            ("larger", (a, b)),
            ("smaller", (a, b)),
            ("smaller_else", (a, b)),
            ("clamp", (a, b)),
            ("widest", (names,)),
            ("literal", (a,)),
        ):
            assert mutant[name](*args) == original[name](*args), (edit, name, args)
        if names:
            assert mutant["first_or_zero"](names) == original["first_or_zero"](names)


def _dropped(source: bytes, kept: set[tuple[int, int, str]]) -> list[Any]:
    """The boundary swaps and default edits the operators would propose without the exemptions."""
    from lanegate.lanes.property import operators

    walker = operators._Walker(
        operators._Source(source), operators.module_imports(ast.parse(source))
    )
    walker.body(ast.parse(source).body)
    return [
        edit
        for edit, _, _, _ in walker.edits
        if (edit.line, edit.column, edit.operator) not in kept
        and original_text(source, edit) != "TYPE_CHECKING"
    ]
