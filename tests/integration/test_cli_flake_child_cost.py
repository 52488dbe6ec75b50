"""`lanegate flake` charges a test the CPU of the processes it runs: a test that starts
`python -c ...` (a CLI test, a subprocess round-trip) waits while its child computes, and the
repetition budget must see that wait as the child's CPU, not as a sleep charged a tenth of it.
"""

from __future__ import annotations

import resource
import subprocess
import sys

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

BURN = "total = 0\nfor i in range(2_000_000):\n    total += i\nprint(total)"
CHILD = f"""\
import subprocess
import sys

BURN = {BURN!r}


def test_child_computes_a_sum():
    done = subprocess.run([sys.executable, "-c", BURN], capture_output=True, text=True, check=True)
    assert int(done.stdout) == sum(range(2_000_000))


def test_plain_sum():
    assert sum(range(10)) == 45
"""
PAID = {"repeat", "zone", "stress", "clock"}
BUDGET = 1.0  # flake.repeat_budget_seconds' default


def _child_cpu() -> float:
    """CPU seconds one run of the child takes on this machine (CPU, unlike wall, barely moves
    with the load)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-c", BURN], capture_output=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def test_a_tests_child_processes_are_charged_to_its_budget(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_child.py": CHILD})
    assert flake(repo.path) == 0
    tests = {t["node_id"].split("::")[1]: t for t in ledger(repo.path)["tests"]}
    child, plain = tests["test_child_computes_a_sum"], tests["test_plain_sum"]
    paid = sum(b["runs"] for b in child["batches"] if b["dimension"] in PAID)
    # the whole budget buys BUDGET / cpu runs of it; allow the measure to be off by 0.7 and the
    # floor's run on top. Charged as waiting (a tenth of the child's seconds plus the parent's
    # own CPU) it got 10-14 runs here, where this bound is about 8 and the charge gives 4.
    assert 1 <= paid <= BUDGET / (0.7 * _child_cpu()) + 1, child["batches"]
    assert child["deterministic"] and plain["deterministic"]
    # the budget the child did not get went to the cheap test
    assert sum(b["runs"] for b in plain["batches"] if b["dimension"] in PAID) > 10 * paid
    capsys.readouterr()
