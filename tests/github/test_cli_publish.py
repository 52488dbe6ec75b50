"""`lanegate publish` and `lanegate authorship` as subprocesses, against the recorded API server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from lanegate.cli.main import main
from tests.github.reports import HEAD, write_report
from tests.github.server import READ_ONLY_TOKEN, REPO, WRITE_TOKEN, RecordedGitHub

RECORDED = Path(__file__).parent / "recorded"
Publish = Callable[[Path, dict[str, str]], subprocess.CompletedProcess[str]]


def _event(tmp_path: Path, **pr_overrides: object) -> Path:
    pr = json.loads((RECORDED / "pull_7.json").read_text())
    pr.update(pr_overrides)
    path = tmp_path / "event.json"
    path.write_text(
        json.dumps(
            {
                "action": "opened",
                "pull_request": pr,
                "repository": {"full_name": "octo-org/widgets"},
            }
        )
    )
    return path


def _env(tmp_path: Path, env: dict[str, str]) -> dict[str, str]:
    summary = tmp_path / "summary.md"
    output = tmp_path / "output.txt"
    summary.touch()
    output.touch()
    return {
        "GITHUB_ACTIONS": "true",
        "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(_event(tmp_path)),
        "GITHUB_REPOSITORY": "octo-org/widgets",
        "LANEGATE_API_RETRIES": "off",
        **env,
    }


def _publish(tmp_path: Path, report: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The real command line in a child process (import cost included, no shared state)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_"))}
    return subprocess.run(
        [sys.executable, "-m", "lanegate", "publish", "--report", str(report)],
        capture_output=True,
        text=True,
        env={**base, **_env(tmp_path, env)},
        timeout=60,
    )


@pytest.fixture
def publish_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[[Path, dict[str, str]], subprocess.CompletedProcess[str]]:
    """The same command line in this process: faster, same code, environment set per call."""

    def run(report: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        for key in list(os.environ):
            if key.startswith(("GITHUB_", "INPUT_")):
                monkeypatch.delenv(key)
        for key, value in _env(tmp_path, env).items():
            monkeypatch.setenv(key, value)
        capsys.readouterr()
        code = main(["publish", "--report", str(report)])
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess([], code, out, err)

    return run


def test_failing_report_posts_a_failure_check_run_and_updates_the_comment(
    tmp_path: Path, github_api: RecordedGitHub, publish_here: Publish
) -> None:
    report = write_report(tmp_path / "ledgers", "fail", fails=80)
    result = publish_here(
        report, {"GITHUB_TOKEN": WRITE_TOKEN, "GITHUB_API_URL": github_api.base_url}
    )
    assert result.returncode == 1, result.stderr
    writes = github_api.writes()
    runs = [w for w in writes if "check-runs" in w.path]
    assert [w.method for w in runs] == ["POST", "PATCH"]  # 60 located fails: 50 + 10
    assert runs[0].body["head_sha"] == HEAD
    assert runs[-1].body["conclusion"] == "failure"
    assert sum(len(w.body["output"]["annotations"]) for w in runs) == 60
    assert [w.path for w in writes if "comments" in w.path] == [f"{REPO}/issues/comments/1003"]
    summary = (tmp_path / "summary.md").read_text()
    assert "lanegate lane B: FAIL" in summary and "could not post" not in summary
    assert "verdict<<" in (tmp_path / "output.txt").read_text()
    assert "::error title=lanegate/flake-disagreement,file=tests/test_w.py,line=2" in result.stdout


def test_read_only_token_degrades_to_summary_and_exit_code(
    tmp_path: Path, github_api: RecordedGitHub
) -> None:
    report = write_report(tmp_path / "ledgers", "fail", fails=2)
    result = _publish(
        tmp_path, report, {"GITHUB_TOKEN": READ_ONLY_TOKEN, "GITHUB_API_URL": github_api.base_url}
    )
    assert result.returncode == 1  # the verdict, never a pass
    assert "degraded" in result.stderr and "HTTP 403" in result.stderr
    assert len(github_api.writes()) == 1  # one refused write; the comment is not even attempted
    summary = (tmp_path / "summary.md").read_text()
    assert "lanegate lane B: FAIL" in summary and "could not post everything" in summary
    assert "degraded<<" in (tmp_path / "output.txt").read_text()


def test_passing_report_with_read_only_token_passes_with_the_summary_saying_so(
    tmp_path: Path, github_api: RecordedGitHub, publish_here: Publish
) -> None:
    report = write_report(tmp_path / "ledgers", "pass")
    result = publish_here(
        report, {"GITHUB_TOKEN": READ_ONLY_TOKEN, "GITHUB_API_URL": github_api.base_url}
    )
    assert result.returncode == 0
    assert "PASS" in (tmp_path / "summary.md").read_text()


def test_no_token_no_api_still_summary(tmp_path: Path, publish_here: Publish) -> None:
    report = write_report(tmp_path / "ledgers", "fail", fails=1)
    result = publish_here(report, {})
    assert result.returncode == 1
    assert "GITHUB_TOKEN is empty" in result.stderr
    assert "FAIL" in (tmp_path / "summary.md").read_text()


def test_inside_actions_without_github_output_is_refused(tmp_path: Path) -> None:
    report = write_report(tmp_path / "ledgers", "pass")
    result = _publish(tmp_path, report, {"GITHUB_OUTPUT": ""})
    assert result.returncode == 2
    assert "refusing the deprecated ::set-output" in result.stderr
    assert "::set-output" not in result.stdout


@pytest.mark.parametrize("text", ["{", "[]", '{"schema_version": 1}'])
def test_broken_report_is_one_line_exit_2(tmp_path: Path, text: str, publish_here: Publish) -> None:
    report = tmp_path / "score-report.json"
    report.write_text(text)
    result = publish_here(report, {})
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and str(report) in result.stderr


def test_authorship_from_event(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    event = _event(tmp_path)
    out = tmp_path / "out.txt"
    out.touch()
    body = tmp_path / "body.md"
    monkeypatch.setenv("GITHUB_OUTPUT", str(out))
    code = main(
        ["authorship", "--repo", str(repo), "--event", str(event), "--pr-body-out", str(body)]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.out.strip() == "agent"
    assert "label 'agent'" in captured.err or "Bot" in captured.err
    assert "lanegate-lease: tests/test_io.py::test_slow" in body.read_text()
    assert "authorship<<" in out.read_text()
    assert (
        main(["authorship", "--repo", str(repo), "--event", str(event), "--pr-body-out", str(body)])
        == 2
    )
    assert "never overwrites" in capsys.readouterr().err
