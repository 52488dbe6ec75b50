"""`lanegate flake` charges a test the CPU of the processes it runs: a test that starts
`python -c ...` (a CLI test, a subprocess round-trip) waits while its child computes, and the
repetition budget must see that wait as the child's CPU, not as a sleep charged a tenth of it.

The child burns CPU until its own CPU clock passes `CHILD_CPU`, so every run of it costs at least
that, on any machine and under any load, and the budget is set below it: charged the child's CPU,
no run beyond the floor is affordable; charged as waiting (a tenth of its wall time, plus the
parent's own CPU), several are. Nothing here compares two timings.
"""

from __future__ import annotations

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

CHILD_CPU = 0.3
BUDGET = 0.25  # below CHILD_CPU: one more run of the child costs more than the whole budget
BURN = f"import time\nwhile time.process_time() < {CHILD_CPU}:\n    pass\nprint('burnt')"
CHILD = f"""\
import subprocess
import sys

BURN = {BURN!r}


def test_child_burns_its_cpu():
    done = subprocess.run([sys.executable, "-c", BURN], capture_output=True, text=True, check=True)
    assert done.stdout == "burnt\\n"


def test_plain_sum():
    assert sum(range(10)) == 45
"""
POLICY = f"[flake]\nrepeat_budget_seconds = {BUDGET}\n"
PAID = {"repeat", "zone", "stress", "clock"}
# every test gets one repeat run in each of replays 2 and 3 (a state leak shows in two replays); the
# budget buys nothing beyond them for the child
FLOOR = 2


def test_a_tests_child_processes_are_charged_to_its_budget(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_child.py": CHILD}, {"lanegate.toml": POLICY})
    assert flake(repo.path) == 0
    tests = {t["node_id"].split("::")[1]: t for t in ledger(repo.path)["tests"]}
    child, plain = tests["test_child_burns_its_cpu"], tests["test_plain_sum"]
    paid = sum(b["runs"] for b in child["batches"] if b["dimension"] in PAID)
    # Charged as waiting, the child cost the budget 0.03-0.1 s a run and got 2-5 paid runs.
    assert paid == FLOOR, child["batches"]
    assert child["deterministic"] and plain["deterministic"]
    # the budget the child could not use went to the cheap test (400 runs cost it about 0.04 s)
    assert sum(b["runs"] for b in plain["batches"] if b["dimension"] in PAID) >= 100
    capsys.readouterr()
