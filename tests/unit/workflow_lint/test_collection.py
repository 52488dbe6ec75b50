"""What pytest collects, by the project's own configuration (pytest's order of config files)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate.workflow_lint.collection import Collection, imported_names, load_collection
from lanegate.workflow_lint.discover import discover
from tests.unit.workflow_lint.helpers import write_tree


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({}, Collection()),
        (
            {
                "pyproject.toml": '[tool.pytest.ini_options]\ntestpaths = ["t"]\npython_files = "check_*.py"\n'
            },
            Collection(("t",), ("check_*.py",)),
        ),
        # pytest.ini wins, even without a [pytest] section
        (
            {"pytest.ini": "[other]\n", "tox.ini": "[pytest]\ntestpaths = t\n"},
            Collection(),
        ),
        (
            {"tox.ini": "[pytest]\ntestpaths = a b\nnorecursedirs = data\n"},
            Collection(("a", "b"), norecursedirs=("data",)),
        ),
        (
            {"setup.cfg": "[tool:pytest]\npython_files =\n  t_*.py\n  *_t.py\n"},
            Collection(python_files=("t_*.py", "*_t.py")),
        ),
        # a pyproject.toml without pytest settings falls through to setup.cfg
        (
            {
                "pyproject.toml": "[project]\nname='x'\n",
                "setup.cfg": "[tool:pytest]\ntestpaths = s\n",
            },
            Collection(("s",)),
        ),
        # pytest 9's pytest.toml comes first, even over pytest.ini
        (
            {
                "pytest.toml": '[pytest]\ntestpaths = ["t9"]\n',
                "pytest.ini": "[pytest]\ntestpaths = t\n",
            },
            Collection(("t9",)),
        ),
        ({".pytest.ini": "[pytest]\nnorecursedirs = x\n"}, Collection(norecursedirs=("x",))),
        # unreadable config: the defaults (the lint reports the file itself)
        ({"pyproject.toml": "[tool.pytest.ini_options\n"}, Collection()),
        ({"pyproject.toml": "a = " + "[" * 5000 + "]" * 5000 + "\n"}, Collection()),
    ],
)
def test_settings_come_from_the_file_pytest_reads(
    tmp_path: Path, files: dict[str, str], expected: Collection
) -> None:
    write_tree(tmp_path, files)
    assert load_collection(tmp_path) == expected


def test_collects() -> None:
    c = Collection(("tests",), ("test_*.py",), ("data", ".*"))
    assert c.collects("tests/test_a.py")
    assert c.collects("tests/unit/test_a.py")
    assert not c.collects("tests/data/test_a.py")  # norecursedirs
    assert not c.collects("tests/.cache/test_a.py")
    # outside testpaths: a bare `pytest` skips it, CI may name its folder (`pytest t/integration`)
    assert c.collects("scripts/test_a.py")
    assert not c.collects("tests/helpers.py")  # python_files
    assert c.collects("conftest.py") and c.collects("tests/conftest.py")
    assert c.collects("docs/conftest.py") and not c.collects("tests/data/conftest.py")


def test_imported_names() -> None:
    names = imported_names(
        ["from tests.helpers.persist import stubborn\nimport a.b as c, d\nfrom . import (e, f)\n"]
    )
    assert {"tests", "helpers", "persist", "stubborn", "a", "b", "d", "e", "f"} <= names


def test_discovery_keeps_imported_helpers_only(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "tests/test_a.py": "from tests.util import make\n",
            "tests/util.py": "def make(): ...\n",
            "tests/unused.py": "def other(): ...\n",
            "resources/test/fixtures/E501.py": "x = (\n",
        },
    )
    assert [d.path for d in discover(tmp_path)] == ["tests/test_a.py", "tests/util.py"]
