"""Temp git repositories for flake lane tests: a base commit and a feature branch adding tests."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping

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


def zone_offsets(zones: Iterable[str]) -> dict[str, int]:
    """Each TZ string's real UTC offset in seconds, as a fresh interpreter sees it (`TZ=<X>-5` style
    names are silently UTC on some C libraries, so every zone is checked, not trusted)."""
    code = "import time; print(time.localtime(0).tm_gmtoff)"
    out = {}
    for zone in zones:
        done = subprocess.run(
            [sys.executable, "-S", "-c", code],
            env={"TZ": zone},
            capture_output=True,
            text=True,
            check=True,
        )
        out[zone] = int(done.stdout)
    return out
