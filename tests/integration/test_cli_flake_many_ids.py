"""A selection too long for one environment string: a new test parametrized over 1,200 long ids
gives replays batches of several hundred KiB, which Linux refuses as one variable (E2BIG,
"Argument list too long", past 128 KiB); the lane hands them to pytest in a file and every id is
replayed. (A command line past the bound lanegate starts a process with is refused, saying how
to split it: `tests/unit/flake/test_execute.py`.)"""

from __future__ import annotations

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

MANY = """\
import pytest

IDS = [f"case-{i:04d}-" + "long-parameter-id-" * 5 for i in range(1200)]


@pytest.mark.parametrize("value", range(1200), ids=IDS)
def test_value(value):
    assert value >= 0
"""


def test_a_thousand_parametrized_ids_are_replayed(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_many.py": MANY})
    assert flake(repo.path) == 0, capsys.readouterr().out
    data = ledger(repo.path)
    assert len(data["tests"]) == 1200
    assert all(t["deterministic"] for t in data["tests"])
    command = next(r["command"] for r in data["replays"] if r["replay"] == 2)
    batches = next(c for c in command if c.startswith("LANEGATE_FLAKE_BATCHES="))
    assert len(batches) > 128 * 1024  # the recorded command keeps them whole
