"""The key a coverage map is valid for, computed from a real repository and this interpreter."""

from __future__ import annotations

from collections.abc import Callable
from importlib import metadata
from pathlib import Path

import pytest

from lanegate.lanes.property.baseline import pytest_flags
from lanegate.lanes.property.map_key import environment_digest, map_key, name_and_version
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


def test_name_and_version_read_as_the_metadata_parser_reads_them() -> None:
    """The header-only read gives every installed distribution's name and version exactly as
    `importlib.metadata` does (so a map built before this shortcut keeps its key)."""
    dists = list(metadata.distributions())
    assert len(dists) > 10
    for dist in dists:
        assert name_and_version(dist) == (dist.metadata["Name"] or "?", str(dist.version))


@pytest.mark.parametrize(
    "text",
    [
        "Metadata-Version: 2.1\nName: plain\nVersion: 1.0\n\nName: body-not-header\n",
        "metadata-version: 2.1\nname: lower\nversion: 2.0 \n",
        "Name: folded\n  -part\nVersion: 3\n",
        "Name:\t tabbed\nVersion:4\nName: second\n",
        "Version: 5\n",
        "Name: no-version\n",
        "",
    ],
)
def test_name_and_version_of_odd_metadata_files(tmp_path: Path, text: str) -> None:
    info = tmp_path / "odd-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(text, encoding="utf-8")
    dist = metadata.PathDistribution(info)
    assert name_and_version(dist) == (dist.metadata["Name"] or "?", str(dist.version))
