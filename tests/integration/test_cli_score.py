"""`lanegate score` end to end: exit codes, written files, refusals, and no traceback on garbage."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from lanegate.cli.main import main
from tests.gitrepo import Repo
from tests.unit.scoring.examples import copy_set

NOW = "2026-11-29T22:00:00Z"


def _copy(tmp_path: Path, folder: str = "pass") -> Path:
    return copy_set(folder, tmp_path)


def _score(*args: str) -> int:
    return main(["score", *args])


def test_pass_exits_0_and_writes_report_and_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy(tmp_path)
    assert _score("--ledgers", str(folder), "--now", NOW) == 0
    out = capsys.readouterr().out
    assert out.startswith("lanegate score: PASS")
    report = json.loads((folder / "score-report.json").read_text())
    assert report["verdict"] == "pass"
    assert {d["name"] for d in report["ledgers"]} == {
        "property.json",
        "fixture.json",
        "flake.json",
        "lint.json",
    }
    assert (folder / "score-summary.md").read_text().startswith("<!-- lanegate score summary -->")
    # a second run overwrites its own outputs
    assert _score("--ledgers", str(folder), "--now", NOW) == 0


@pytest.mark.parametrize(
    "folder",
    [
        "fail-flaky",
        "fail-mutants",
        "fail-fixture",
        "fail-lease",
        "fail-retry",
        "fail-rerun",
        "fail-missing",
        "fail-writer",
    ],
)
def test_failing_sets_exit_1_and_name_the_rule(
    folder: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = _copy(tmp_path, folder)
    assert _score("--ledgers", str(target), "--now", NOW) == 1
    out = capsys.readouterr().out
    assert out.startswith("lanegate score: FAIL")
    report = json.loads((target / "score-report.json").read_text())
    assert report["verdict"] == "fail"
    for fail in report["fails"]:
        assert f"  fail  {fail['rule_id']}" in out


def test_run_attempt_from_env_and_expect_jobs_in_actions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy(tmp_path)
    monkeypatch.setenv("GITHUB_RUN_ATTEMPT", "2")
    assert _score("--ledgers", str(folder), "--now", NOW) == 1
    assert "score-run-attempt" in capsys.readouterr().out
    monkeypatch.setenv("GITHUB_RUN_ATTEMPT", "1")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    data = json.loads((folder / "property.json").read_text())
    data["job"] = "build"
    (folder / "property.json").write_text(json.dumps(data))
    assert _score("--ledgers", str(folder), "--now", NOW) == 1
    assert "ledger-wrong-job" in capsys.readouterr().out
    assert _score("--ledgers", str(folder), "--now", NOW, "--no-expect-jobs") == 0


def test_human_authorship_and_diff_of_gate_inputs(
    tmp_path: Path, make_repo: object, capsys: pytest.CaptureFixture[str]
) -> None:
    repo: Repo = make_repo("r")  # type: ignore[operator]
    repo.write("src/calc.py", "x = 1\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write(".github/workflows/ci.yml", "on: push\n")
    repo.commit("agent change")
    folder = _copy(tmp_path)
    args = ("--ledgers", str(folder), "--now", NOW, "--repo", str(repo.path), "--base", "main")
    assert _score(*args) == 1
    out = capsys.readouterr().out
    assert "gate-input-changed  .github/workflows/ci.yml" in out
    # the sample ledgers describe another head than this repo's: that fails too
    assert "ledger-commit-mismatch" in out
    assert _score(*args, "--authorship", "human") == 1
    assert "gate-input-changed" not in capsys.readouterr().out


def test_pr_body_is_rechecked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _copy(tmp_path)
    body = tmp_path / "body.md"
    body.write_text("lanegate-lease: tests/test_io.py::test_socket expires 2099-01-01T00:00:00Z\n")
    assert _score("--ledgers", str(folder), "--now", NOW, "--pr-body", str(body)) == 0
    body.write_text("no lease shown here\n")
    assert _score("--ledgers", str(folder), "--now", NOW, "--pr-body", str(body)) == 1
    assert "flake-lease-not-in-pr" in capsys.readouterr().out


def test_refuses_to_overwrite_a_file_that_is_not_ours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy(tmp_path)
    (folder / "score-report.json").write_text('{"mine": true}')
    assert _score("--ledgers", str(folder), "--now", NOW) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert (folder / "score-report.json").read_text() == '{"mine": true}'
    (folder / "score-report.json").unlink()
    (folder / "score-summary.md").write_text("# my notes\n")
    assert _score("--ledgers", str(folder), "--now", NOW) == 2
    assert (folder / "score-summary.md").read_text() == "# my notes\n"


@pytest.mark.parametrize(
    ("setup", "code"),
    [
        ("dir-instead-of-file", 1),
        ("empty-file", 1),
        ("binary-junk", 1),
        ("empty-folder", 1),
        ("ledgers-is-a-file", 2),
        ("bad-now", 2),
        ("naive-now", 2),
        ("bad-policy", 2),
        ("lint-missing", 1),
    ],
)
def test_garbage_input_gives_a_clean_exit_and_no_traceback(
    setup: str, code: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _copy(tmp_path)
    args = ["--ledgers", str(folder), "--now", NOW]
    if setup == "dir-instead-of-file":
        (folder / "flake.json").unlink()
        (folder / "flake.json").mkdir()
    elif setup == "empty-file":
        (folder / "fixture.json").write_bytes(b"")
    elif setup == "binary-junk":
        (folder / "property.json").write_bytes(bytes(range(256)) * 8)
    elif setup == "empty-folder":
        folder = tmp_path / "empty"
        folder.mkdir()
        args = ["--ledgers", str(folder), "--now", NOW]
    elif setup == "ledgers-is-a-file":
        args = ["--ledgers", str(folder / "flake.json"), "--now", NOW]
    elif setup == "bad-now":
        args[-1] = "yesterday"
    elif setup == "naive-now":
        args[-1] = "2026-11-29T22:00:00"
    elif setup == "bad-policy":
        policy = tmp_path / "lanegate.toml"
        policy.write_text("[lane]\nnmae = 'x'\n")
        args += ["--config", str(policy)]
    elif setup == "lint-missing":
        args += ["--lint", str(tmp_path / "nope.json")]
    assert _score(*args) == code
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    if code == 2:
        assert captured.err.startswith("lanegate: error:")
        assert len(captured.err.strip().splitlines()) == 1
    else:
        assert "lanegate score: FAIL" in captured.out


def test_console_script_runs_in_a_fresh_process(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "lanegate", "score", "--ledgers", str(folder), "--now", NOW],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "lanegate score: PASS" in done.stdout
    garbage = subprocess.run(
        [sys.executable, "-m", "lanegate", "score", "--ledgers"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert garbage.returncode == 2
    assert "Traceback" not in garbage.stderr


@pytest.mark.parametrize("name", ["property", "fixture", "flake", "leases", "lint", "score-report"])
def test_schema_command_prints_each_schema(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", name]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"].startswith("https://json-schema.org/")


def test_schema_command_rejects_unknown_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "nope"]) == 2
    assert "nope" in capsys.readouterr().err
