"""The base's whole-suite collection made once for a batch: taken by a head's flake lane only when
its base view would be exactly that tree, else collected again (real git, real sandboxed pytest)."""

from __future__ import annotations

import pytest

from lanegate.diff import classify_diff
from lanegate.lanes.flake.suite import Collected, collect_base, collect_suite, usable
from lanegate.policy import Policy
from lanegate.sandbox import open_sandbox
from tests.gitrepo import Repo, git


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    made = Repo(tmp_path_factory.mktemp("suite") / "repo")
    made.write("tests/test_one.py", "def test_one():\n    assert 1\n")
    made.write("tests/test_two.py", "def test_two():\n    assert 2\n")
    git(made.path, "add", "-A")
    git(made.path, "commit", "-q", "-m", "base")
    git(made.path, "checkout", "-q", "-b", "head")
    made.write("tests/test_three.py", "def test_three():\n    assert 3\n")
    git(made.path, "add", "-A")
    git(made.path, "commit", "-q", "-m", "head")
    return made


def test_a_fitting_shared_collection_stands_in_for_the_base_view(repo: Repo) -> None:
    policy = Policy()
    forbidden = policy.lane.forbidden_pytest_plugins
    diff = classify_diff(repo.path, "main", policy)
    with open_sandbox(repo.path) as sandbox:
        git(repo.path, "checkout", "-q", "main")
        try:
            shared = collect_base(repo.path, forbidden, 60, sandbox=sandbox)
        finally:
            git(repo.path, "checkout", "-q", "head")
        assert {n.split("::")[1] for n in shared.collected.node_ids} == {"test_one", "test_two"}
        assert usable(shared, repo.path, diff.merge_base, forbidden)
        # a collection that says the base had one more test: taken, so that test is lost at head
        marked = Collected(shared.collected.node_ids | {"tests/test_gone.py::test_gone"}, {})
        shared = type(shared)(shared.commit, shared.forbidden, marked)
        taken = collect_suite(
            repo.path, diff.merge_base, diff.files, forbidden, 60, sandbox=sandbox, shared=shared
        )
        assert taken.lost == ("tests/test_gone.py::test_gone",)
        # another base, other plugins forbidden, or an untracked file: collected again, as alone
        other = type(shared)("0" * 40, shared.forbidden, marked)
        assert not usable(other, repo.path, diff.merge_base, forbidden)
        assert not usable(shared, repo.path, diff.merge_base, (*forbidden, "xdist"))
        repo.write("notes.txt", "untracked\n")
        try:
            assert not usable(shared, repo.path, diff.merge_base, forbidden)
            again = collect_suite(
                repo.path,
                diff.merge_base,
                diff.files,
                forbidden,
                60,
                sandbox=sandbox,
                shared=shared,
            )
        finally:
            (repo.path / "notes.txt").unlink()
        assert again.ran and again.lost == () and again.base_tests == 2
