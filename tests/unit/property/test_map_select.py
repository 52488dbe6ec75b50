"""Coverage-map selection: which lines are function bodies, and which base tests a change selects."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.errors import CoverageMapError
from lanegate.lanes.property.map_file import CoverageMapFile, MapTest
from lanegate.lanes.property.map_key import MapKey
from lanegate.lanes.property.map_select import _units, select

SOURCE = b'''\
import os

LIMIT = 3


@decorate(LIMIT)
def f(x,
      y=LIMIT):
    """Docs."""
    total = x + y
    # a comment

    def inner():
        return total
    return inner()


class Box:
    size = 2

    def grow(self, n):
        return n + self.size

    class Inner:
        async def run(self):
            return 1


if os.name:
    def g():
        return 2
'''


@pytest.mark.parametrize(
    ("line", "unit"),
    [
        (10, "f"),
        (13, "f"),
        (14, "f"),
        (15, "f"),
        (22, "Box.grow"),
        (26, "Box.Inner.run"),
        (31, "g"),
    ],
)
def test_body_lines_name_their_outermost_function(line: int, unit: str) -> None:
    assert _units("m.py", SOURCE, {line}) == {unit}


@pytest.mark.parametrize("line", [1, 3, 6, 7, 8, 9, 18, 19, 21, 29, 30])
def test_other_lines_are_not_function_bodies(line: int) -> None:
    # import, constant, decorator, signature (both lines), docstring, class line and body,
    # method signature, module-level `if`, a def inside it
    with pytest.raises(CoverageMapError, match=f"m.py:{line} is outside every function body"):
        _units("m.py", SOURCE, {line})


def test_blank_and_comment_lines_count_for_nothing() -> None:
    assert _units("m.py", SOURCE, {2, 11, 12}) == set()


KEY = MapKey("a" * 40, "l", "e", "v", "p")
FUNCTIONS = ("m.py::f", "m.py::f.<locals>.inner", "m.py::g", "m.py::Box.grow", "m.py::fa")

tests_strategy = st.dictionaries(
    st.from_regex(r"t\.py::test_[a-z]{1,3}", fullmatch=True),
    st.builds(
        MapTest,
        st.sampled_from(["passed", "passed", "failed", "skipped"]),
        st.booleans(),
        st.frozensets(st.integers(0, len(FUNCTIONS) - 1)),
    ),
    max_size=12,
)


@given(tests_strategy, st.frozensets(st.sampled_from(["m.py::f", "m.py::g", "m.py::Box.grow"])))
def test_selection_holds_every_test_that_reached_a_changed_function(
    tests: dict[str, MapTest], changed: frozenset[str]
) -> None:
    data = CoverageMapFile(KEY, {}, FUNCTIONS, frozenset(), tests, ())
    chosen = select(data, tuple(sorted(changed)))
    for node, test in tests.items():
        reached = {FUNCTIONS[i] for i in test.reached}
        nested = {r.split(".<locals>.", 1)[0] for r in reached}
        if nested & changed or test.opaque or test.outcome != "passed":
            assert node in chosen
        else:  # `fa` shares a prefix with `f` but is another function
            assert node not in chosen


def test_a_changed_function_called_outside_tests_is_not_scoped() -> None:
    data = CoverageMapFile(KEY, {}, FUNCTIONS, frozenset({2}), {}, ())
    with pytest.raises(CoverageMapError, match="m.py::g runs outside any test"):
        select(data, ("m.py::g",))
    assert select(data, ("m.py::f",)) == frozenset()
