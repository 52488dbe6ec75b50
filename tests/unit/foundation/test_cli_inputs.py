"""Clock and run-attempt inputs fail closed with one line: never a default that could pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate.cli.main import main
from lanegate.errors import UsageError
from lanegate.lanes.context import run_attempt_from_env

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "ledgers" / "pass"


@pytest.mark.parametrize(
    ("now", "message"),
    [("yesterday", "not an ISO 8601"), ("2026-01-01T00:00:00", "no zone"), ("", "not an ISO")],
)
def test_score_refuses_a_bad_clock(
    now: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["score", "--ledgers", str(EXAMPLES), "--now", now])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "--now" in err and "Traceback" not in err
    assert not (EXAMPLES / "score-report.json").exists()


@pytest.mark.parametrize("raw", ["x", "0", "-1", "1.5", "", " 2"])
def test_garbage_run_attempt_is_a_usage_error_never_attempt_one(raw: str) -> None:
    with pytest.raises(UsageError, match="GITHUB_RUN_ATTEMPT"):
        run_attempt_from_env({"GITHUB_RUN_ATTEMPT": raw})


def test_run_attempt_defaults_to_one_outside_actions_and_reads_actions() -> None:
    assert run_attempt_from_env({}) == 1
    assert run_attempt_from_env({"GITHUB_RUN_ATTEMPT": "3"}) == 3


def test_score_cli_refuses_a_garbage_run_attempt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_RUN_ATTEMPT", "two")
    code = main(["score", "--ledgers", str(EXAMPLES)])
    assert code == 2
    assert "GITHUB_RUN_ATTEMPT" in capsys.readouterr().err
