"""A mutant child (head code) that writes an answer of its own into the pipe it inherits from its
fork server: the lane notices the answer is not the job's and judges none of the worker's mutants."""

from __future__ import annotations

from collections.abc import Callable

from lanegate.lanes.context import LaneContext
from lanegate.lanes.property import run_lane
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import MutantStatus, PropertyLedger
from lanegate.policy import load_policy
from tests.gitrepo import Repo
from tests.unit.flake.repos import feature_repo

FORGE = """\
import json
import os

from calc import add


def test_forges_answers():
    assert add(2, 2) == 4
    # every inherited pipe this process can write to gets answers that claim a kill by timeout
    line = json.dumps({"id": "forged", "exit": 1, "timed_out": True, "seconds": 0.0}) + "\\n"
    for name in os.listdir("/proc/self/fd"):
        try:
            if int(name) > 2 and os.readlink(f"/proc/self/fd/{name}").startswith("pipe:"):
                os.write(int(name), line.encode() * 50)
        except OSError:
            pass
"""


def test_an_answer_for_another_job_stops_the_worker(make_repo: Callable[[str], Repo]) -> None:
    calc = "def add(a, b):\n    return a + b\n"
    repo = feature_repo(
        make_repo,
        {
            "calc.py": calc.replace("return a + b", "total = a + b\n    return total"),
            "tests/test_forge.py": FORGE,
        },
        {
            "lanegate.toml": "[properties]\nmax_mutants = 4\nmutant_draw = 1\n",
            "calc.py": calc,
            "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
        },
    )
    out = repo.path.parent / "out"
    ctx = LaneContext(repo=repo.path, base="main", policy=load_policy(repo.path), out_dir=out)
    outcome = run_lane(ctx, workers=1)
    ledger = load_file(PropertyLedger, "property", out / "property.json").value
    assert not outcome.would_pass
    assert not [m for m in ledger.mutants if m.status == MutantStatus.KILLED]
    assert any("answered for 'forged'" in p for p in outcome.problems), outcome.problems
