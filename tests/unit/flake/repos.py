"""Temp git repositories for flake lane tests: a base commit and a feature branch adding tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from tests.gitrepo import Repo

# The test repos switch Hypothesis's pytest plugin off: it adds ~1 s of imports to every replay.
PYTEST_INI = "[pytest]\naddopts = -p no:hypothesispytest\n"


def feature_repo(
    make_repo: Callable[[str], Repo],
    files: Mapping[str, str],
    base_files: Mapping[str, str] | None = None,
) -> Repo:
    """`main` holds pytest.ini (and `base_files`); branch `feature` adds or changes `files`."""
    repo = make_repo("repo")
    repo.write("pytest.ini", PYTEST_INI)
    for rel, text in (base_files or {}).items():
        repo.write(rel, text)
    repo.commit("base")
    repo.branch("feature")
    for rel, text in files.items():
        repo.write(rel, text)
    repo.commit("feature")
    return repo
