"""`lanegate flake` on a busy machine: the deschedule runs stop the replay's process for 100-300 ms
while a test runs, C code and sleeps included, as a loaded CI runner does.

The flaky test allows its 50 ms sleep 40 ms of slack, which any stop of 100 ms or more that lands
inside it exceeds; its look-alike allows 5 s and must pass every run.
"""

from __future__ import annotations

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

BUSY = """\
import time


def test_meets_a_tight_deadline():
    start = time.monotonic()
    time.sleep(0.05)
    assert time.monotonic() - start < 0.09


def test_meets_a_generous_deadline():
    start = time.monotonic()
    time.sleep(0.05)
    assert time.monotonic() - start < 5.0
"""


def test_deschedule_runs_expose_a_tight_deadline_and_pass_a_generous_one(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_busy.py": BUSY})
    assert flake(repo.path) == 1
    tests = {t["node_id"].split("::")[1]: t for t in ledger(repo.path)["tests"]}
    tight, generous = tests["test_meets_a_tight_deadline"], tests["test_meets_a_generous_deadline"]
    (stopped,) = [b for b in tight["batches"] if b["dimension"] == "deschedule"]
    assert stopped["replay"] == 3 and stopped["runs"] >= 2 and stopped["failed"] >= 1
    assert not tight["deterministic"] and tight["power"]["deschedule"] == stopped["runs"]
    if tight["exposed_by"] == "deschedule":
        assert "process stopped 0." in tight["reproduce"], tight["reproduce"]
    (calm,) = [b for b in generous["batches"] if b["dimension"] == "deschedule"]
    assert generous["deterministic"] and calm["passed"] == calm["runs"] >= 2
    capsys.readouterr()


# A deadline the test sets on a child process: the child computes ~30 ms (no output, so
# `subprocess.run` waits with `Popen.wait(timeout)`, which reaps a child that exited before it
# looks at the clock). Only a stop that reaches the child too shows the deadline; the look-alike
# allows a minute. Neither reads the clock: the `timeout=` is what gives them deschedule runs.
CHILD = """\
import subprocess
import sys

WORK = [sys.executable, "-I", "-S", "-c", "sum(range(2_000_000))"]


def test_child_within_a_tight_timeout():
    assert subprocess.run(WORK, timeout=0.2).returncode == 0


def test_child_within_a_generous_timeout():
    assert subprocess.run(WORK, timeout=60).returncode == 0
"""


def test_a_timeout_the_test_sets_on_a_child_meets_the_stopped_child(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_child.py": CHILD})
    assert flake(repo.path) == 1, capsys.readouterr().out
    tests = {t["node_id"].split("::")[1]: t for t in ledger(repo.path)["tests"]}
    tight, generous = (
        tests["test_child_within_a_tight_timeout"],
        tests["test_child_within_a_generous_timeout"],
    )
    (stopped,) = [b for b in tight["batches"] if b["dimension"] == "deschedule"]
    assert stopped["runs"] >= 2 and stopped["failed"] >= 1, stopped
    assert not tight["deterministic"], tight
    (calm,) = [b for b in generous["batches"] if b["dimension"] == "deschedule"]
    assert generous["deterministic"] and calm["passed"] == calm["runs"] >= 2, generous
