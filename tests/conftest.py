"""Shared test setup: git identity for temp repos, and no ambient CI or pytest options leaking in."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.gitrepo import GIT_ENV, Repo

# tests/cases holds data: example repos, planted flakes and mutation targets run by the lanes
# themselves in subprocesses, never collected as lanegate's own tests.
collect_ignore = ["cases"]


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)
    for key in (
        "PYTEST_ADDOPTS",
        "GITHUB_RUN_ATTEMPT",
        "GITHUB_JOB",
        "GITHUB_OUTPUT",
        "LANEGATE_DEBUG",
    ):
        monkeypatch.delenv(key, raising=False)


@pytest.fixture
def make_repo(tmp_path: Path) -> Callable[[str], Repo]:
    def make(name: str = "repo") -> Repo:
        return Repo(tmp_path / name)

    return make


def pytest_report_header() -> str:
    return f"lanegate tests; CI={os.environ.get('CI', '')!r}"
