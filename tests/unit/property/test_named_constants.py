"""Named constants folded from a module's source: what counts, and what is left out."""

from __future__ import annotations

import ast

from hypothesis import given
from hypothesis import strategies as st

from lanegate.lanes.property.named_constants import named_constants

SOURCE = """
import os
from math import pi as PI
KB = 1024
LIMIT = 2 ** 10 * KB
DAY: int = 24 * 60 * 60
NAME = "a" + "b" * 2
NEG = -KB
HALF = 1 / 2
ENV = os.environ.get("X")
TWICE = 1
TWICE = 2
BIG = 2 ** 1000
WIDE = "x" * 10 ** 6
FMT = "%s" % 3
AUG = 1
AUG += 1
FLAG = True


def f():
    KB = 3  # a local: the module's KB is still a constant
    return KB


for i in range(3):
    pass
"""


def test_folded_values_and_what_is_left_out() -> None:
    assert named_constants(ast.parse(SOURCE)) == {
        "KB": 1024,
        "LIMIT": 1024 * 1024,
        "DAY": 86400,
        "NAME": "abb",
        "NEG": -1024,
        "HALF": 0.5,
    }


def test_a_name_bound_twice_anywhere_at_top_level_is_no_constant() -> None:
    source = "N = 3\nif True:\n    N = 4\nM = N + 1\n"
    assert named_constants(ast.parse(source)) == {}


@given(
    st.recursive(
        st.integers(-3, 3).map(str),
        lambda inner: st.tuples(
            inner, st.sampled_from(["+", "-", "*", "**", "<<", "//", "%"]), inner
        ).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        max_leaves=30,
    )
)
def test_any_arithmetic_folds_or_is_left_out_never_raises(expression: str) -> None:
    found = named_constants(ast.parse(f"X = {expression}\n"))
    if "X" in found:
        assert found["X"] == eval(expression)  # noqa: S307 - small integer arithmetic we wrote
