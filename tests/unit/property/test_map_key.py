"""The key a coverage map is valid for, computed from a real repository and this interpreter."""

from __future__ import annotations

from collections.abc import Callable

from lanegate.lanes.property.baseline import pytest_flags
from lanegate.lanes.property.map_key import environment_digest, map_key
from lanegate.policy import Policy, policy_from_mapping
from tests.gitrepo import Repo


def test_each_input_moves_its_own_part(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("keyed")
    repo.write("src/m.py", "def f():\n    return 1\n")
    repo.write("requirements.txt", "attrs==23.1.0\n")
    repo.write("pytest.ini", "[pytest]\n")
    first = repo.commit("base")
    flags = pytest_flags(Policy())
    key = map_key(repo.path, first, flags)
    assert map_key(repo.path, first, flags) == key
    assert key.base_commit == first and key.environment == environment_digest()

    repo.write("src/m.py", "def f():\n    return 2\n")
    code = repo.commit("code")
    assert key.differences(map_key(repo.path, code, flags)) == ["base_commit"]

    repo.write("requirements.txt", "attrs==24.1.0\n")
    lock = repo.commit("lock")
    assert key.differences(map_key(repo.path, lock, flags)) == ["base_commit", "lock"]

    repo.write("tests/conftest.py", "")
    config = repo.commit("conftest")
    assert map_key(repo.path, lock, flags).differences(map_key(repo.path, config, flags)) == [
        "base_commit",
        "pytest",
    ]

    seeded = pytest_flags(policy_from_mapping({"properties": {"seed": 7}}, "test"))
    assert key.differences(map_key(repo.path, first, seeded)) == ["pytest"]


def test_only_files_inside_the_repository_reach_pytest(make_repo: Callable[[str], Repo]) -> None:
    from lanegate.lanes.property.runner import _repo_file

    repo = make_repo("files")
    repo.write("tests/test_a.py", "")
    (repo.path.parent / "outside.py").write_text("", encoding="utf-8")
    (repo.path / "tests" / "link.py").symlink_to(repo.path.parent / "outside.py")
    assert _repo_file(repo.path, "tests/test_a.py")
    for hostile in (
        "/etc/passwd",
        "../outside.py",
        "tests/../../outside.py",
        "tests/link.py",
        "tests/none.py",
        "tests",
    ):
        assert not _repo_file(repo.path, hostile), hostile
