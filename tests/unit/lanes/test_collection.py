"""Node ids mapped onto definitions, and the test-file patterns of the merge base's pytest config."""

from __future__ import annotations

import ast
from collections.abc import Callable

from lanegate.lanes import pytest_ini
from lanegate.lanes.collection import Collection, locate, split_node_id
from tests.gitrepo import Repo

SOURCE = """\
import unittest


class Base(unittest.TestCase):
    def test_shared(self):
        pass


class DerivedTests(Base):
    x = 1


class Other(SomethingImported):
    pass


class TestOuter:
    class TestInner:
        def test_deep(self, n):
            pass


test_built = make_test()
"""


def test_locate_own_inherited_imported_nested_and_unknown() -> None:
    tree = ast.parse(SOURCE)
    own = locate(tree, "t.py::Base::test_shared")
    assert own.qualname == "Base.test_shared" and own.spans == ((5, 6),)
    derived = locate(tree, "t.py::DerivedTests::test_shared")
    assert derived.spans == ((5, 6), (9, 10)) and derived.node is own.node
    imported = locate(tree, "t.py::Other::test_elsewhere")
    assert imported.node is None and imported.spans == ((13, 14),)
    deep = locate(tree, "t.py::TestOuter::TestInner::test_deep[3-x]")
    assert deep.qualname == "TestOuter.TestInner.test_deep" and deep.spans == ((19, 20),)
    built = locate(tree, "t.py::test_built")
    assert not built.located and built.touched_by({1}) and not built.touched_by(set())
    assert split_node_id("a/t.py::C::f[1::2]") == ("a/t.py", ("C", "f"))


def test_collection_by_file_and_errors() -> None:
    c = Collection(("a.py::t1", "a.py::t2", "ab.py::t"), ("b.py",))
    assert c.in_file("a.py") == ("a.py::t1", "a.py::t2")
    assert c.failed("b.py") and not c.failed("a.py")


def test_pytest_config_precedence_and_patterns(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write("setup.cfg", "[tool:pytest]\npython_files = check_*.py *_spec.py\n")
    repo.write("tox.ini", "[tox]\nenvlist = py\n")
    first = repo.commit("setup.cfg only")
    ini = pytest_ini.read(repo.path, first)
    assert ini.source == "setup.cfg"
    assert ini.collects("tests/check_a.py") and ini.collects("x_spec.py")
    assert not ini.collects("tests/test_a.py") and not ini.collects("conftest.py")
    repo.write("tox.ini", "[tox]\nenvlist = py\n\n[pytest]\naddopts = -q\n")
    second = repo.commit("tox.ini wins")
    assert pytest_ini.read(repo.path, second).python_files == pytest_ini.DEFAULT_PYTHON_FILES
    repo.write("pyproject.toml", '[tool.pytest.ini_options]\npython_files = ["t_*.py"]\n')
    third = repo.commit("pyproject before tox.ini")
    assert pytest_ini.read(repo.path, third).collects("t_x.py")
    repo.write("pytest.ini", "")
    fourth = repo.commit("an empty pytest.ini is still the config")
    only = pytest_ini.read(repo.path, fourth)
    assert only.source == "pytest.ini" and only.collects("test_x.py")


def test_collection_lookups_match_a_scan_of_the_node_ids() -> None:
    node_ids = ("a.py::t1", "a.py::C::t2[x::y]", "ab.py::t", "d::e.py::t", "a.py")
    errors = ("b.py", "c.py::C", "a")
    c = Collection(node_ids, errors)
    for path in ("a.py", "ab.py", "d", "d::e.py", "b.py", "c.py", "a", "c.py::C", "x.py"):
        assert c.in_file(path) == tuple(n for n in node_ids if n.startswith(path + "::"))
        assert c.failed(path) == any(e == path or e.startswith(path + "::") for e in errors)
    assert Collection(node_ids, errors) == c
