"""Coverage-map selection: which lines are function bodies, and which base tests a change selects."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.diff import classify_diff
from lanegate.errors import CoverageMapError
from lanegate.lanes.property.map_file import CoverageMapFile, MapTest
from lanegate.lanes.property.map_key import MapKey
from lanegate.lanes.property.map_select import _parsed_bodies, _units, changed_functions, select
from lanegate.policy import Policy
from tests.gitrepo import git

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
    assert _units("m.py", SOURCE, {line}, _parsed_bodies("m.py", SOURCE)) == {unit}


@pytest.mark.parametrize("line", [1, 3, 6, 7, 8, 9, 18, 19, 21, 29, 30])
def test_other_lines_are_not_function_bodies(line: int) -> None:
    # import, constant, decorator, signature (both lines), docstring, class line and body,
    # method signature, module-level `if`, a def inside it
    with pytest.raises(CoverageMapError, match=f"m.py:{line} is outside every function body"):
        _units("m.py", SOURCE, {line}, _parsed_bodies("m.py", SOURCE))


def test_blank_and_comment_lines_count_for_nothing() -> None:
    assert _units("m.py", SOURCE, {2, 11, 12}, _parsed_bodies("m.py", SOURCE)) == set()


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


def _diff_case(make_repo: Any, files: dict[str, str | None]) -> str:
    """The reason `changed_functions` refuses a diff (or 'scoped: ...' when it accepts it)."""
    repo = make_repo("scoped")
    repo.write("src/m.py", "def f():\n    return 1\n")
    repo.write("tests/test_m.py", "from m import f\n\n\ndef test_f():\n    assert f() == 1\n")
    repo.write("notes.txt", "a\n")
    base = repo.commit("base")
    blob = git(repo.path, "rev-parse", f"{base}:src/m.py").strip()
    data = CoverageMapFile(
        KEY,
        {"src/m.py": blob},
        ("src/m.py::f",),
        frozenset(),
        {"tests/test_m.py::test_f": MapTest("passed", False, frozenset({0}))},
        (),
    )
    repo.branch("feature")
    for path, text in files.items():
        if text is None:
            repo.remove(path)
        else:
            repo.write(path, text)
    repo.commit("feature")
    summary = classify_diff(repo.path, "main", Policy())
    try:
        functions, whole = changed_functions(repo.path, summary, data)
    except CoverageMapError as exc:
        return str(exc)
    return f"scoped: {functions} {whole}"


@pytest.mark.parametrize(
    ("files", "reason"),
    [
        ({"src/m.py": "def f():\n    return 2\n"}, "scoped: ('src/m.py::f',) ()"),
        (
            {
                "src/m.py": "def f():\n    return 2\n",
                "tests/test_n.py": "def test_n():\n    pass\n",
            },
            "scoped: ('src/m.py::f',) ('tests/test_n.py',)",
        ),
        ({"tests/conftest.py": "X = 1\n"}, "tests/conftest.py is a gate input"),
        ({"pytest.ini": "[pytest]\n"}, "pytest.ini is a gate input"),
        ({"src/n.py": "def g():\n    return 1\n"}, "src/n.py is added, not a Python file's body"),
        ({"src/m.py": None}, "src/m.py is deleted"),
        ({"notes.txt": "b\n"}, "notes.txt is modified, not a Python file's body"),
        ({"test_top.py": "def test_t():\n    pass\n"}, "test_top.py: a test file outside a tests/"),
        ({"src/m.py": "import os\n\n\ndef f():\n    return 1\n"}, "src/m.py:1 is outside every"),
    ],
)
def test_what_the_map_can_scope(make_repo: Any, files: dict[str, str | None], reason: str) -> None:
    assert _diff_case(make_repo, files).startswith(reason)


def test_a_file_traced_at_another_blob_is_not_scoped(make_repo: Any) -> None:
    repo = make_repo("blob")
    repo.write("src/m.py", "def f():\n    return 1\n")
    repo.commit("base")
    data = CoverageMapFile(KEY, {"src/m.py": "0" * 40}, (), frozenset(), {}, ())
    repo.branch("feature")
    repo.write("src/m.py", "def f():\n    return 2\n")
    repo.commit("feature")
    with pytest.raises(CoverageMapError, match="traced at another blob"):
        changed_functions(repo.path, classify_diff(repo.path, "main", Policy()), data)
