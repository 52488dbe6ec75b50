"""Replays drop Hypothesis's `too_slow` health check (a timing limit the test did not set), and keep
every other: real pytest runs of a test whose data generation is slow, with and without the flake
plugin's `_untimed` applied at collection (by a conftest, as the plugin applies it in a replay)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SLOW = """\
import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def slowly(x):
    time.sleep(0.35)
    return x


# Hypothesis allows data generation 5 x the deadline (3 s here, 30 s with none): ten draws of
# 0.35 s exceed it, and the body is far inside its own 600 ms on a busy machine
@settings(max_examples=11, deadline=600, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.integers().map(slowly))
def test_slow_to_generate(x):
    assert isinstance(x, int)
"""

CONFTEST = """\
from lanegate.lanes.flake.plugin import _untimed


def pytest_collection_modifyitems(items):
    for item in items:
        _untimed(item)
"""


def _pytest(where: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "-n",
            "0",
            "test_slow.py",
        ],
        cwd=where,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_too_slow_is_dropped_and_the_tests_own_checks_stay(tmp_path: Path) -> None:
    (tmp_path / "test_slow.py").write_text(SLOW)
    plain = _pytest(tmp_path)
    assert plain.returncode == 1 and "HealthCheck.too_slow" in plain.stdout, plain.stdout
    (tmp_path / "conftest.py").write_text(CONFTEST)
    untimed = _pytest(tmp_path)
    assert untimed.returncode == 0, untimed.stdout
