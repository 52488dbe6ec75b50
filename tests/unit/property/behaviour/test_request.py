"""The request's edges: a function the diff moved, a budget spent, a function that cannot be
imported at head, a method of a class with no state; in the real sandbox."""

from __future__ import annotations

from pathlib import Path

from lanegate.lanes.property.behaviour import ChangedFunction
from tests.unit.property.behaviour.repos import build, compare

OLD = "def half(x: int) -> int:\n    return x // 2\n"
NEW = "def half(x: int) -> int:\n    return int(x / 2)\n"


def test_a_moved_function_is_compared_with_its_base_version(tmp_path: Path) -> None:
    repo, base, head = build(tmp_path / "repo", {"pkg/__init__.py": "", "pkg/old.py": OLD}, {})
    repo.remove("pkg/old.py")
    repo.write("pkg/new.py", NEW)
    head = repo.commit("move")
    moved = ChangedFunction("pkg/new.py", "half", "pkg/old.py", "half")
    (result,) = compare(repo, base, head, [moved], max_examples=30).values()
    assert result.verdict == "differs", result
    assert "half(-1): base -1, head 0" in [str(d) for d in result.differences]


def test_a_spent_budget_is_never_same(tmp_path: Path) -> None:
    repo, base, head = build(
        tmp_path / "repo", {"pkg/__init__.py": "", "pkg/m.py": OLD}, {"pkg/m.py": NEW + "\n"}
    )
    functions = [ChangedFunction("pkg/m.py", "half", "pkg/m.py", "half")] * 2
    found = compare(repo, base, head, functions, cpu_seconds=0.01)
    for result in found.values():
        assert result.verdict == "not-compared"
        assert "properties.behaviour_cpu_seconds = 0.01" in result.reason, result.reason


METHOD = """class Box:
    def size(self, x: int) -> int:
        return x

    @staticmethod
    def grow(x: int) -> int:
        return x + 1
"""


def test_import_failure_is_not_compared_and_methods_are(tmp_path: Path) -> None:
    repo, base, head = build(
        tmp_path / "repo",
        {"pkg/__init__.py": "", "pkg/m.py": OLD, "pkg/box.py": METHOD},
        {"pkg/m.py": NEW + "raise ImportError('no')\n",
         "pkg/box.py": METHOD.replace("x + 1", "x + 2").replace("return x\n", "return -x\n")},
    )  # fmt: skip
    functions = [
        ChangedFunction("pkg/m.py", "half", "pkg/m.py", "half"),
        ChangedFunction("pkg/box.py", "Box.size", "pkg/box.py", "Box.size"),
        ChangedFunction("pkg/box.py", "Box.grow", "pkg/box.py", "Box.grow"),
    ]
    found = compare(repo, base, head, functions, max_examples=10)
    assert found["half"].verdict == "not-compared"
    assert found["half"].reason == "at head: import pkg.m failed: ImportError"
    assert found["Box.size"].verdict == "differs", found["Box.size"]
    assert "size(pkg.box.Box(), 1): base 1, head -1" in [
        str(d) for d in found["Box.size"].differences
    ]
    assert found["Box.grow"].verdict == "differs"
    assert "grow(0): base 1, head 2" in [str(d) for d in found["Box.grow"].differences]
