"""`lanegate property` and `lanegate oracles` on a real git repository with real pytest runs."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from lanegate.lanes.property import plan_mutants
from lanegate.lanes.property.revert import is_revert
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import MutantStatus, PropertyLedger
from lanegate.policy import load_policy
from tests.gitrepo import Repo

TARGET = Path(__file__).resolve().parents[1] / "cases" / "property" / "target"


def _lanegate(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", *args, "--repo", str(repo)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("lib")
    source = (TARGET / "ledgermath.py").read_text(encoding="utf-8")
    old = source.replace("if x > hi:", "if x >= hi:").replace(
        "base + 1 if i < extra", "base + 1 if extra > i"
    )
    repo.write("ledgermath.py", old)
    repo.write("pyproject.toml", (TARGET / "pyproject.toml").read_text(encoding="utf-8"))
    repo.write("lanegate.toml", "[properties]\nmax_examples = 25\nmax_mutants = 4\n")
    repo.write("tests/test_units.py", (TARGET / "tests" / "test_units.py").read_text("utf-8"))
    repo.commit("base")
    repo.branch("feature")
    repo.write("ledgermath.py", source)
    repo.write(
        "tests/test_ledgermath.py", (TARGET / "tests" / "test_ledgermath.py").read_text("utf-8")
    )
    repo.write(
        "tests/test_tautology.py",
        "from hypothesis import given, strategies as st\nimport ledgermath\n\n\n"
        "@given(st.integers())\ndef test_same(x):\n"
        "    assert ledgermath.clamp(x, 0, 1) == ledgermath.clamp(x, 0, 1)\n",
    )
    repo.commit("feature")
    return repo


def _outcome(ledger: PropertyLedger) -> list[tuple[str, str, str | None]]:
    return [(m.id, str(m.status), m.killed_by) for m in ledger.mutants]


def test_property_lane_end_to_end(make_repo: Callable[[str], Repo]) -> None:
    repo = _repo(make_repo)
    first = _lanegate(repo.path, "property", "--base", "main", "--out", "out1", "--quiet")
    assert first.returncode == 1, first.stdout + first.stderr
    assert "Traceback" not in first.stderr
    ledger = load_file(PropertyLedger, "property", repo.path / "out1" / "property.json").value

    # counted cases: every property ran under the recorded seed with the database off
    assert ledger.cases_run > 0 and ledger.cases_failed == 0
    assert ledger.seed == 0 and ledger.effective_settings["database"] is None
    by_node = {p.node_id: p for p in ledger.properties}
    assert by_node["tests/test_ledgermath.py::test_amounts_round_trip"].cases_run == 25
    assert by_node["tests/test_ledgermath.py::test_count_up"].max_examples_cut is True
    assert by_node["tests/test_tautology.py::test_same"].passed_oracle_check is False

    # oracle findings name file, line and reason
    (finding,) = ledger.oracle_findings
    assert (finding.path, finding.line, finding.test) == ("tests/test_tautology.py", 6, "test_same")
    assert "equals itself" in finding.reason

    # mutants: re-derivable by the scorer, only on the changed lines, honest statuses
    planned = plan_mutants(repo.path, "main", load_policy(repo.path), draw=ledger.mutant_draw)
    assert [m.id for m in ledger.mutants] == [m.id for m in planned]
    assert ledger.mutants_planted == len(planned) > 0
    operators = [m for m in ledger.mutants if not is_revert(m.operator)]
    assert {m.line for m in operators} <= {22, 46}
    # each changed function's revert (its base version, planted whole from its `def`) is listed
    # with the mutants, and its changed-function entry names it
    reverts = [m for m in ledger.mutants if is_revert(m.operator)]
    assert {(m.operator, m.line) for m in reverts} == {("revert", 18), ("revert", 43)}
    assert sorted(i for c in ledger.changed_functions for i in c.reverts) == sorted(
        m.id for m in reverts
    )
    assert all(m.status is not MutantStatus.ERROR for m in ledger.mutants)
    killed = [m for m in operators if m.status is MutantStatus.KILLED]
    assert ledger.killed_mutants == sum(1 for m in killed if str(m.kill_kind) == "property")

    report = json.loads((repo.path / "out1" / "mutation-report.json").read_text("utf-8"))
    assert report["schemaVersion"] == "1" and set(report["thresholds"]) == {"high", "low"}
    mutants = report["files"]["ledgermath.py"]["mutants"]
    assert [m["id"] for m in mutants] == [m.id for m in ledger.mutants]

    # two identical runs (the second given the first's draw): identical ids and statuses
    draw = str(ledger.mutant_draw)
    second = _lanegate(
        repo.path, "property", "--base", "main", "--out", "out2", "--quiet", "--mutant-draw", draw
    )
    assert second.returncode == first.returncode
    again = load_file(PropertyLedger, "property", repo.path / "out2" / "property.json").value
    assert _outcome(again) == _outcome(ledger)

    # replay rebuilds one mutant from its id and gets the same outcome
    target = ledger.mutants[0]
    replay = _lanegate(repo.path, "property", "--base", "main", "--replay", target.id)
    assert replay.returncode == 0, replay.stderr
    assert f"status: {target.status}" in replay.stdout
    assert "--- a/ledgermath.py" in replay.stdout and "+++ b/ledgermath.py" in replay.stdout
    assert f"-{target.original}" not in replay.stdout or target.original in replay.stdout

    # the user's working tree is untouched
    assert repo.path.joinpath("ledgermath.py").read_text("utf-8") == (
        TARGET / "ledgermath.py"
    ).read_text("utf-8")
    status = subprocess.run(
        ["git", "-C", str(repo.path), "status", "--porcelain"], capture_output=True, text=True
    )
    assert {line[3:].split("/")[0] for line in status.stdout.splitlines()} <= {"out1", "out2"}


def test_oracles_command_and_bad_replay(make_repo: Callable[[str], Repo]) -> None:
    repo = _repo(make_repo)
    done = _lanegate(repo.path, "oracles", "--base", "main")
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == (
        "tests/test_tautology.py:6: test_same: asserts an expression equals itself (line 7)"
    )
    for draw in ("-1", "x", str(2**62), "1.5"):
        odd = _lanegate(repo.path, "property", "--base", "main", "--mutant-draw", draw)
        assert odd.returncode == 2 and "Traceback" not in odd.stderr, odd.stderr
        assert "--mutant-draw" in odd.stderr and "between 0 and 2**62 - 1" in odd.stderr
    both = _lanegate(
        repo.path, "property", "--base", "main", "--mutant-draw", "3", "--shard", "1/2"
    )
    assert both.returncode == 2 and "Traceback" not in both.stderr
    assert "a shard plants with its plan's draw" in both.stderr
    bad = _lanegate(repo.path, "property", "--base", "main", "--replay", "m-0000000000000000")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "is not a mutant candidate of main...HEAD" in bad.stderr


def test_new_tests_that_skip_or_cut_examples_earn_no_cases(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = make_repo("lib")
    repo.write("calc.py", "def double(x):\n    return 2 * x\n")
    repo.write("lanegate.toml", "[properties]\nmodule = 'lanegate.oracles'\nmax_examples = 30\n")
    repo.write(
        "tests/test_calc.py",
        "from calc import double\n\n\ndef test_d():\n    assert double(2) == 4\n",
    )
    repo.commit("base")
    repo.branch("feature")
    repo.write(
        "tests/test_new.py",
        "import pytest\nfrom hypothesis import given, settings, strategies as st\n"
        "from lanegate.oracles import monotonic\nfrom calc import double\n\n\n"
        "@pytest.mark.skip(reason='later')\n@given(st.integers(), st.integers())\n"
        "def test_skipped(a, b):\n    monotonic(double, a, b)\n\n\n"
        "@pytest.mark.xfail(reason='later')\ndef test_xfailed():\n    monotonic(double, 1, 2)\n\n\n"
        "@settings(max_examples=1)\n@given(st.integers(), st.integers())\n"
        "def test_one_example(a, b):\n    monotonic(double, a, b)\n",
    )
    repo.commit("feature")
    done = _lanegate(repo.path, "property", "--base", "main", "--out", str(repo.path / "out"))
    assert done.returncode == 1, done.stdout + done.stderr
    ledger = load_file(PropertyLedger, "property", repo.path / "out" / "property.json").value
    runs = {p.node_id.rsplit("::", 1)[1]: p for p in ledger.properties}
    assert runs["test_skipped"].cases_run == 0
    assert runs["test_xfailed"].cases_run == 0
    assert runs["test_one_example"].max_examples_cut and runs["test_one_example"].max_examples == 1
    assert {b.outcome for b in ledger.base_tests} == {"passed"}
