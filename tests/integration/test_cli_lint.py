"""`lanegate lint` as a user runs it: a subprocess on real repositories, exit codes and reports."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import LintReport
from tests.benchsmoke import run_smoke
from tests.gitrepo import Repo

ROOT = Path(__file__).resolve().parents[2]
WF = ".github/workflows/ci.yml"
RETRYING = (
    "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest || true\n"
)
CLEAN = "on: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n      - run: pytest\n"


def lanegate(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", "lint", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_default_path_is_the_repository_root(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write(WF, RETRYING)
    (repo.path / "sub").mkdir()
    done = lanegate(cwd=repo.path / "sub")
    assert done.returncode == 1, done.stderr
    assert (
        done.stdout.splitlines()[0]
        == f"{WF}:6:24: shell-ignore-failure: `|| true` after a test command turns its failure into a pass"
    )
    assert done.stdout.splitlines()[-1] == "lanegate lint (lane-b): 1 file scanned, 1 finding"


def test_clean_repository_exits_zero(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write(WF, CLEAN)
    done = lanegate(cwd=repo.path)
    assert done.returncode == 0, done.stderr
    assert "clean" in done.stdout


def test_json_output_file_is_the_lint_report_score_reads(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    repo = make_repo("r")
    repo.write(WF, RETRYING)
    out = tmp_path / "lint.json"
    done = lanegate(str(repo.path), "--format", "json", "--output", str(out), cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == f"lanegate lint (lane-b): 1 file scanned, 1 finding; wrote {out}\n"
    report = load_file(LintReport, "lint", out).value
    assert [(f.path, f.line, f.column, f.rule_id, f.exempted) for f in report.findings] == [
        (WF, 6, 24, "shell-ignore-failure", False)
    ]


def test_github_and_sarif_formats(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write(WF, RETRYING)
    github = lanegate("--format", "github", cwd=repo.path)
    assert github.stdout.startswith(f"::error file={WF},line=6,col=24,title=shell-ignore-failure::")
    sarif = json.loads(lanegate("--format", "sarif", cwd=repo.path).stdout)
    assert sarif["version"] == "2.1.0"
    assert sarif["runs"][0]["results"][0]["ruleId"] == "lanegate/shell-ignore-failure"


def test_usage_errors_exit_two_without_traceback(tmp_path: Path) -> None:
    for args in (
        ["--format", "xml"],
        [str(tmp_path / "missing")],
        ["--today", "soon", str(tmp_path)],
        ["--jobs", "0", str(tmp_path)],
    ):
        done = lanegate(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_unparseable_workflow_is_a_finding_not_a_crash(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write(WF, "on: [push\njobs: {\n")
    done = lanegate(cwd=repo.path)
    assert done.returncode == 1
    assert "unparseable-file" in done.stdout and "Traceback" not in done.stderr


def test_lane_a_exemption_and_lane_b_refusal(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write(WF, RETRYING)
    repo.write(
        "lanegate.toml",
        f'[[lint.exemptions]]\nrule = "shell-ignore-failure"\ntarget = "{WF}"\nreason = "known flake, ticket 7"\nexpires = 2026-03-01\n',
    )
    assert lanegate("--mode", "lane-a", "--today", "2026-02-01", cwd=repo.path).returncode == 0
    assert (
        lanegate(".github", "--mode", "lane-a", "--today", "2026-02-01", cwd=repo.path).returncode
        == 0
    )
    assert lanegate("--mode", "lane-b", "--today", "2026-02-01", cwd=repo.path).returncode == 1
    expired = lanegate("--mode", "lane-a", "--today", "2026-03-02", cwd=repo.path)
    assert expired.returncode == 1
    assert "lanegate.toml: expired-exemption" in expired.stdout


def test_lanegate_lints_its_own_workflows_and_config_clean() -> None:
    own = [
        p
        for p in (".github", "action.yml", "pyproject.toml", "tests/conftest.py")
        if (ROOT / p).exists()
    ]
    done = lanegate(*own, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_github_folder_is_linted_relative_to_its_repository(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = make_repo("r")
    repo.write(WF, RETRYING)
    repo.write("requirements.txt", "flaky\n")
    done = lanegate(".github", cwd=repo.path)
    assert done.returncode == 1
    assert done.stdout.startswith(f"{WF}:6:24: shell-ignore-failure")
    assert "requirements.txt" not in done.stdout


def test_benchmark_smoke_runs_both_linters() -> None:
    out = run_smoke("lint_bench.py", timeout=300)
    assert "ratio lanegate/zizmor at N=40:" in out, out
    assert "scaling lanegate t(2N)/t(N):" in out


def test_hostile_inputs_end_in_findings_or_one_line_never_a_hang(tmp_path: Path) -> None:
    workflows = tmp_path / "repo" / ".github" / "workflows"
    workflows.mkdir(parents=True)
    os.mkfifo(workflows / "fifo.yml")
    (workflows / "zero.yml").symlink_to("/dev/zero")
    (workflows / "empty.yml").write_text("# nothing\n", encoding="utf-8")
    done = lanegate("--format", "json", cwd=tmp_path / "repo")
    assert done.returncode == 1, done.stderr
    found = {(f["path"], f["rule_id"]) for f in json.loads(done.stdout)["findings"]}
    assert found == {
        (".github/workflows/fifo.yml", "unparseable-file"),
        (".github/workflows/zero.yml", "unparseable-file"),
        (".github/workflows/empty.yml", "unparseable-file"),
    }
    (tmp_path / "bare").mkdir()
    done = lanegate(str(tmp_path / "bare"), cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "nothing to lint" in done.stderr
    assert "Traceback" not in done.stderr


def test_output_to_a_device_or_pipe_writes_through_it_never_replaces_it(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    # a FIFO stands in for /dev/null: renaming a temporary file over it (as root, over /dev/null)
    # turned it into a regular file for every process on the machine (issue 47)
    repo = make_repo("r")
    repo.write(WF, RETRYING)
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        done = lanegate(str(repo.path), "--format", "json", "--output", str(pipe), cwd=tmp_path)
        assert done.returncode == 1, done.stderr
        assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
        assert b'"shell-ignore-failure"' in os.read(reader, 1 << 16)
    finally:
        os.close(reader)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".pipe.")] == []
