"""Shared test setup: git identity for temp repos, and no ambient CI or pytest options leaking in."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import settings

from lanegate.sandbox.pids import CGROUP_PREFIX, _pids_hierarchy
from tests import hostwatch
from tests.gitrepo import GIT_ENV, Repo

# lanegate's own properties check verdicts, never time: on a busy machine Hypothesis's default 200 ms
# deadline would fail a property by the clock (a test that sets its own deadline keeps it)
settings.register_profile("lanegate-suite", deadline=None)
settings.load_profile("lanegate-suite")

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


# A sandbox releases its pids cgroup when closed or garbage-collected; one collected while a process
# of it still ran (its cgroup not yet empty) leaves the cgroup behind. The session that owns the run
# (not an xdist worker: another worker may be about to enter a cgroup it just made) removes the empty
# ones that appeared during the run and are older than a sandbox takes to enter its own, so that a
# lanegate run beside the suite keeps its fresh ones.
_CGROUP_GRACE_SECONDS = 2.0
_cgroups_before: set[str] = set()


def _lanegate_cgroups() -> tuple[Path | None, set[str]]:
    root = _pids_hierarchy()
    if root is None:
        return None, set()
    try:
        return root, {e.name for e in os.scandir(root) if e.name.startswith(CGROUP_PREFIX)}
    except OSError:
        return root, set()


# The session that owns the run checks at its end that the device nodes every process relies on
# and the files outside its temporary folders it watches (`tests.hostwatch`) are as they were, and
# fails the session otherwise, naming each change.
_host_before: hostwatch.Snapshot = {}


def pytest_sessionstart(session: pytest.Session) -> None:
    _cgroups_before.update(_lanegate_cgroups()[1])
    if not hasattr(session.config, "workerinput"):
        _host_before.update(hostwatch.snapshot())


def pytest_sessionfinish(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput"):
        return
    changed = hostwatch.changes(_host_before, hostwatch.snapshot()) if _host_before else []
    if changed:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        for line in changed:
            if reporter is not None:
                reporter.write_line(f"outside the test folders: {line}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    root, now = _lanegate_cgroups()
    if root is None:
        return
    for name in sorted(now - _cgroups_before):
        group = root / name
        try:
            if time.time() - group.stat().st_mtime > _CGROUP_GRACE_SECONDS:
                group.rmdir()  # refused while a process is in it
        except OSError:
            pass
