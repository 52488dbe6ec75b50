"""Clock and run-attempt inputs fail closed with one line: never a default that could pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from lanegate.cli.main import main
from lanegate.errors import UsageError
from lanegate.lanes.context import run_attempt_from_env
from tests.unit.scoring.examples import copy_set


@pytest.mark.parametrize(
    ("now", "message"),
    [("yesterday", "not an ISO 8601"), ("2026-01-01T00:00:00", "no zone"), ("", "not an ISO")],
)
def test_score_refuses_a_bad_clock(
    now: str, message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = copy_set("pass", tmp_path)
    code = main(["score", "--ledgers", str(folder), "--now", now])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and "--now" in err and "Traceback" not in err
    assert not (folder / "score-report.json").exists()


@pytest.mark.parametrize("raw", ["x", "0", "-1", "1.5", "", " 2"])
def test_garbage_run_attempt_is_a_usage_error_never_attempt_one(raw: str) -> None:
    with pytest.raises(UsageError, match="GITHUB_RUN_ATTEMPT"):
        run_attempt_from_env({"GITHUB_RUN_ATTEMPT": raw})


def test_run_attempt_defaults_to_one_outside_actions_and_reads_actions() -> None:
    assert run_attempt_from_env({}) == 1
    assert run_attempt_from_env({"GITHUB_RUN_ATTEMPT": "3"}) == 3


def test_score_cli_refuses_a_garbage_run_attempt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("GITHUB_RUN_ATTEMPT", "two")
    code = main(["score", "--ledgers", str(copy_set("pass", tmp_path))])
    assert code == 2
    assert "GITHUB_RUN_ATTEMPT" in capsys.readouterr().err


def test_sigterm_at_any_point_of_a_command_is_a_message_and_143(tmp_path: Path) -> None:
    """SIGTERM before a run's own handler is set (here: while the arguments are parsed) unwinds
    like Ctrl-C: one line, exit 143, never the bare -15 of a process killed mid-import."""
    script = (
        "import os, signal, sys\n"
        "from lanegate.cli import main as entry\n"
        "build = entry.build_parser\n"
        "def parser(*args):\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return build(*args)\n"
        "entry.build_parser = parser\n"
        "sys.exit(entry.main(['lint', '.']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 143, done.stderr
    assert done.stderr.strip() == "lanegate: terminated (SIGTERM) before it finished"
