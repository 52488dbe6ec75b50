"""The whole suite's collection at head against the merge base's (`lanes/flake/suite.compare`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from lanegate.lanes.flake.suite import MAX_LISTED, Collected, compare

_IDS = st.sampled_from([f"tests/test_{f}.py::test_{n}" for f in "abc" for n in range(3)])


def test_only_head_errors_and_tests_lost_outside_the_touched_files_count() -> None:
    base = Collected(
        frozenset({"tests/test_a.py::t", "tests/test_b.py::t", "tests/test_c.py::t"}),
        {"tests/test_broken.py": "ImportError: no module named x"},
    )
    head = Collected(
        frozenset({"tests/test_a.py::t", "tests/unit/test_a.py::u"}),
        {
            "tests/test_broken.py": "ImportError: no module named x",
            "tests/unit/test_a.py": "mismatch",
        },
    )
    found = compare(head, base, {"tests/test_b.py", "tests/unit/test_a.py"})
    assert found.ran and (found.head_tests, found.base_tests) == (2, 3)
    assert [(e.collector, e.detail) for e in found.new_errors] == [
        ("tests/unit/test_a.py", "mismatch")
    ]
    assert found.lost == ("tests/test_c.py::t",) and found.lost_count == 1


@given(
    base=st.frozensets(_IDS),
    head=st.frozensets(_IDS),
    touched=st.sets(st.sampled_from(["tests/test_a.py", "x"])),
)
def test_lost_is_what_only_the_base_collects_outside_the_touched_files(
    base: frozenset[str], head: frozenset[str], touched: set[str]
) -> None:
    found = compare(Collected(head, {}), Collected(base, {}), touched)
    expected = {n for n in base - head if n.split("::")[0] not in touched}
    assert set(found.lost) == expected and found.lost_count == len(expected)
    assert not found.new_errors


def test_what_is_listed_is_bounded() -> None:
    base = Collected(frozenset(f"tests/test_x.py::t{i}" for i in range(200)), {})
    head = Collected(frozenset(), {f"tests/test_{i}.py": "E" for i in range(200)})
    found = compare(head, base, ())
    assert len(found.lost) == MAX_LISTED and found.lost_count == 200
    assert len(found.new_errors) == MAX_LISTED


def test_tests_are_compared_by_function_not_by_parameter() -> None:
    base = Collected(frozenset({"t.py::f[0.31]", "t.py::f[0.77]", "t.py::g[a]", "t.py::h"}), {})
    head = Collected(frozenset({"t.py::f[0.52]", "t.py::g[b]"}), {})
    found = compare(head, base, ())
    assert found.lost == ("t.py::h",) and found.lost_count == 1
