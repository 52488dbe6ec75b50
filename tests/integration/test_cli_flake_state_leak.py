"""`lanegate flake` tells a state leak (a test that fails only when it runs again in its own
process) from a flake: a real project's parametrized test that changes its own parameters in place
was failed as non-deterministic, though every normal pytest run passes it."""

from __future__ import annotations

from typing import Any

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

LEAKS = """\
import pytest

CASES = [[-3, 3], [5, -5]]
SEEN = []


@pytest.mark.parametrize("args", CASES)
def test_negates_its_own_parameters(args):
    args[0] *= -1  # changes the list pytest hands every later run of this item
    assert args[0] == args[1]


def test_counts_into_a_module_list():
    SEEN.append(1)
    assert len(SEEN) == 1


@pytest.mark.parametrize("args", [[-3, 3], [5, -5]])
def test_negates_a_copy(args):
    value = -args[0]
    assert value == args[1]
"""


def _tests(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["node_id"].split("::")[1]: t for t in data["tests"]}


def _rules(printed: str) -> set[str]:
    return {line.split("]")[0].split("[")[-1] for line in printed.splitlines() if "  - [" in line}


def test_a_leak_fails_an_agent_diff_as_a_leak_and_is_a_note_in_a_human_one(
    make_repo, capsys
) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_leak.py": LEAKS})
    assert flake(repo.path) == 1
    printed = capsys.readouterr().out
    tests = _tests(ledger(repo.path))
    leaking = [n for n in tests if not n.startswith("test_negates_a_copy")]
    assert len(leaking) == 3
    for name in leaking:
        test = tests[name]
        assert test["exposed_by"] == "state-leak", (name, test["batches"])
        assert all(r["outcome"] == "passed" for r in test["replays"] if r["repeat"] == 0)
        assert "failed only when run again in a process where it already ran" in test["reproduce"]
        repeats = [b for b in test["batches"] if b["dimension"] == "repeat" and b["sequence"]]
        assert len({b["replay"] for b in repeats}) >= 2, name
    counted = tests["test_counts_into_a_module_list"]["batches"]
    assert all(set(b["sequence"]) == {"f"} for b in counted if b["dimension"] == "repeat")
    for name in ("test_negates_a_copy[args0]", "test_negates_a_copy[args1]"):
        assert tests[name]["deterministic"], tests[name]["batches"]
    assert "non-deterministic:" not in printed
    assert "0 non-deterministic, 3 leaking state into their own later runs" in printed
    assert _rules(printed) == {"flake-state-leak"}

    assert flake(repo.path, "--authorship", "human") == 0
    printed = capsys.readouterr().out
    assert "3 leaking state" in printed and "pass:" in printed
