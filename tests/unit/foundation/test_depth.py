"""Repository content nested past the recursion limit: every walk, copy, delete and parse of it ends
in an answer or a one-line error, never a `RecursionError` (issue 47).

Parsed text is nested 5,000 levels. A folder tree is nested as deep as a path can name on Linux
(PATH_MAX, 4,096 bytes: 1,500 levels of `a/` below the temporary folder), which is past the
interpreter's recursion limit of 1,000 that `os.walk`, `os.makedirs` and `shutil.rmtree` recurse by.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from lanegate import pysource, tomltext, treewalk
from lanegate.errors import PolicyError
from lanegate.lanes import pytest_ini
from lanegate.lanes.fixture.readonly import read_only_copy, reset
from lanegate.lanes.fixture.tree import walk as fixture_walk
from lanegate.policy import load_policy
from lanegate.sandbox import inner
from lanegate.workflow_lint.discover import discover
from tests.gitrepo import Repo

TEXT_DEPTH = 5_000
TREE_DEPTH = 1_500


@pytest.fixture(autouse=True)
def _remove_deep_trees(tmp_path: Path) -> Iterator[None]:
    """pytest's clean-up of old temporary folders recurses once per level: leave nothing deep."""
    yield
    treewalk.rmtree(tmp_path, ignore_errors=True)


def _deep_folder(top: Path, levels: int = TREE_DEPTH) -> Path:
    deep = top
    for _ in range(levels):
        deep = deep / "a"
    treewalk.makedirs(deep)  # os.makedirs recurses once per missing level
    return deep


def test_the_tree_is_past_the_recursion_limit(tmp_path: Path) -> None:
    assert TREE_DEPTH > sys.getrecursionlimit()
    try:
        with pytest.raises(RecursionError):
            os.makedirs(tmp_path / "/".join(["a"] * TREE_DEPTH))
    finally:
        treewalk.rmtree(tmp_path / "a")  # pytest's own clean-up recurses once per level


def test_makedirs_and_rmtree_at_depth_leave_links_and_their_targets(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep\n")
    deep = _deep_folder(tmp_path / "tree")
    (deep / "x.txt").write_text("deep\n")
    (deep / "out").symlink_to(outside)  # a link to a folder out of the tree: unlinked, not followed
    (deep / "loop").symlink_to(tmp_path / "tree")
    deep.chmod(0o555)  # read-only, as the fixture lane's copy
    treewalk.makedirs(deep)  # already there: nothing to do
    treewalk.rmtree(tmp_path / "tree")
    assert not (tmp_path / "tree").exists()
    assert (outside / "keep.txt").read_text() == "keep\n"
    treewalk.rmtree(tmp_path / "tree")  # gone already: nothing to do
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileExistsError):
        treewalk.makedirs(tmp_path / "file")


def test_fixture_lane_copies_and_resets_a_tree_past_the_recursion_limit(tmp_path: Path) -> None:
    deep = _deep_folder(tmp_path / "repo" / "tests" / "fixtures")
    (deep / "data.bin").write_bytes(b"\x00\x01")
    tree = fixture_walk(tmp_path / "repo", "tests/fixtures")
    assert len(tree.entries) == 1
    with read_only_copy(tree) as root:
        copied = root / "/".join(["a"] * TREE_DEPTH) / "data.bin"
        assert copied.read_bytes() == b"\x00\x01"
        reset(tree, root)
        assert copied.read_bytes() == b"\x00\x01"
        holder = root.parent
    assert not holder.exists()
    treewalk.rmtree(tmp_path / "repo")


def test_sandbox_copy_of_a_tree_past_the_recursion_limit(tmp_path: Path) -> None:
    deep = _deep_folder(tmp_path / "source")
    (deep / "x.py").write_text("x = 1\n")
    (tmp_path / "target").mkdir()  # the sandbox's tmpfs at the repository's path
    inner._copy_tree(str(tmp_path / "source"), str(tmp_path / "target"), set())
    assert (tmp_path / "target" / "/".join(["a"] * TREE_DEPTH) / "x.py").read_text() == "x = 1\n"
    treewalk.rmtree(tmp_path / "source")
    treewalk.rmtree(tmp_path / "target")


DEEP_TOML = "a = " + "[" * TEXT_DEPTH + "]" * TEXT_DEPTH + "\n"


def test_toml_nested_past_the_limit_is_a_decode_error() -> None:
    with pytest.raises(tomllib.TOMLDecodeError, match="nest too deep"):
        tomltext.loads(DEEP_TOML)
    assert tomltext.loads("a = [[1]]\n") == {"a": [[1]]}


def test_policy_nested_past_the_limit_is_a_one_line_policy_error(tmp_path: Path) -> None:
    (tmp_path / "lanegate.toml").write_text(DEEP_TOML)
    with pytest.raises(PolicyError, match=r"lanegate.toml: invalid TOML: .*nest too deep") as exc:
        load_policy(tmp_path)
    assert "\n" not in str(exc.value)


def test_pytest_config_nested_past_the_limit_reads_as_no_config(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("pyproject.toml", "[tool.pytest.ini_options]\n" + DEEP_TOML)
    commit = repo.commit("deep")
    assert pytest_ini.read(repo.path, commit).python_files == pytest_ini.DEFAULT_PYTHON_FILES


def test_python_nested_past_the_limit_is_too_deep() -> None:
    for source in (
        "x = " + " + ".join(["a"] * TEXT_DEPTH) + "\n",
        "x = " + "(" * TEXT_DEPTH + ")" * TEXT_DEPTH + "\n",
        "x = " + "[" * TEXT_DEPTH + "]" * TEXT_DEPTH + "\n",
    ):
        with pytest.raises(SyntaxError):
            pysource.parse(source, "deep.py")


def test_lint_discovery_walks_a_tree_past_the_recursion_limit(tmp_path: Path) -> None:
    deep = _deep_folder(tmp_path / "repo" / "deep")
    (deep / "conftest.py").write_text("")
    (tmp_path / "repo" / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / "repo" / ".github" / "workflows" / "ci.yml").write_text("on: push\n")
    paths = {found.path for found in discover(tmp_path / "repo")}
    assert ".github/workflows/ci.yml" in paths
    assert "deep/" + "a/" * TREE_DEPTH + "conftest.py" in paths
