"""lane-b.yml's coverage-map step, run by bash as GitHub would: it takes the map only from a push run
on this repository's default branch at the merge base, whatever other runs the API lists.

`gh` is a stand-in on PATH that answers `gh api ... --jq EXPR` with recorded runs through the real
`jq` (as gh does) and `gh run download RUN` with a recorded artifact; every other command is real.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.gitrepo import Repo

ROOT = Path(__file__).resolve().parents[2]
LANE_B = ROOT / ".github" / "workflows" / "lane-b.yml"
REPO_NAME = "owner/project"

GH = """#!/usr/bin/env bash
set -euo pipefail
echo "$*" >>"$GH_LOG"
if [[ "$1" == api ]]; then
  shift
  expr=""
  while [[ $# -gt 0 ]]; do
    if [[ "$1" == --jq ]]; then expr="$2"; shift 2; else shift; fi
  done
  exec jq -r "$expr" "$GH_RUNS"
fi
if [[ "$1" == run && "$2" == download ]]; then
  run="$3"; shift 3
  dir=""
  while [[ $# -gt 0 ]]; do
    if [[ "$1" == --dir ]]; then dir="$2"; shift 2; else shift; fi
  done
  [[ -d "$GH_ARTIFACTS/$run" ]] || { echo "no artifact lanegate-coverage-map in run $run" >&2; exit 1; }
  cp "$GH_ARTIFACTS/$run"/* "$dir/"
  exit 0
fi
exit 2
"""


def _step() -> dict[str, Any]:
    jobs = yaml.safe_load(LANE_B.read_text(encoding="utf-8"))["jobs"]
    (step,) = [s for s in jobs["property"]["steps"] if s.get("id") == "coverage-map"]
    return dict(step)


def _run(
    tmp_path: Path,
    repo: Repo,
    base: str,
    runs: list[dict[str, Any]],
    workflow: str = "map.yml",
    token: str = "token",
) -> tuple[subprocess.CompletedProcess[str], Path]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    (bin_dir / "gh").write_text(GH, encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    (tmp_path / "runs.json").write_text(json.dumps({"workflow_runs": runs}), encoding="utf-8")
    artifacts = tmp_path / "artifacts"
    for run in runs:
        folder = artifacts / str(run["id"])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "coverage-map-x.json").write_text(str(run["id"]), encoding="utf-8")
    temp = tmp_path / "runner-temp"
    temp.mkdir(exist_ok=True)
    output = tmp_path / "output"
    output.write_text("", encoding="utf-8")
    env = {
        "PATH": f"{bin_dir}{os.pathsep}/usr/bin:/bin",
        "HOME": str(tmp_path),
        "GH_LOG": str(tmp_path / "gh.log"),
        "GH_RUNS": str(tmp_path / "runs.json"),
        "GH_ARTIFACTS": str(artifacts),
        "RUNNER_TEMP": str(temp),
        "GITHUB_OUTPUT": str(output),
        "GH_TOKEN": token,
        "REPO": REPO_NAME,
        "DEFAULT_BRANCH": "main",
        "WORKFLOW": workflow,
        "BASE_REF": "",
        "PR_BASE": base,
    }
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", _step()["run"]],
        cwd=repo.path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done, temp / "lanegate-coverage-map"


def _run_record(ident: int, sha: str, **changes: Any) -> dict[str, Any]:
    record = {
        "id": ident,
        "event": "push",
        "head_branch": "main",
        "head_sha": sha,
        "head_repository": {"full_name": REPO_NAME},
    }
    record.update(changes)
    return record


@pytest.fixture
def repo(make_repo: Any) -> Repo:
    repo: Repo = make_repo("project")
    repo.write("a.txt", "base\n")
    repo.commit("base")
    repo.branch("feature")
    repo.write("a.txt", "head\n")
    repo.commit("head")
    return repo


def test_only_a_push_run_of_this_repository_on_the_default_branch_is_taken(
    tmp_path: Path, repo: Repo
) -> None:
    base = repo.rev("main")
    runs = [
        _run_record(1, base, event="pull_request"),  # a PR run, even one whose branch is "main"
        _run_record(2, base, head_branch="feature"),  # a push to another branch
        _run_record(3, base, head_repository={"full_name": "fork/project"}),  # a fork's main
        _run_record(4, base),
    ]
    done, folder = _run(tmp_path, repo, base, runs)
    assert done.returncode == 0, done.stderr
    assert (folder / "coverage-map-x.json").read_text(encoding="utf-8") == "4"
    log = (tmp_path / "gh.log").read_text(encoding="utf-8")
    assert f"head_sha={base}" in log and "event=push" in log and "branch=main" in log
    assert f"dir={folder}" in (tmp_path / "output").read_text(encoding="utf-8")


def test_no_trusted_run_leaves_no_map_and_says_so(tmp_path: Path, repo: Repo) -> None:
    base = repo.rev("main")
    runs = [
        _run_record(1, base, event="pull_request"),
        _run_record(3, base, head_repository={"full_name": "fork/project"}),
    ]
    done, folder = _run(tmp_path, repo, base, runs)
    assert done.returncode == 0, done.stderr
    assert not list(folder.iterdir())
    assert "::notice title=lanegate/coverage-map::no successful push run of map.yml" in done.stdout
    assert "full traced baseline" in done.stdout


def test_without_a_workflow_name_the_step_does_nothing(tmp_path: Path, repo: Repo) -> None:
    done, folder = _run(tmp_path, repo, repo.rev("main"), [_run_record(4, "x")], workflow="")
    assert done.returncode == 0, done.stderr
    assert not folder.exists()
    assert (tmp_path / "output").read_text(encoding="utf-8") == ""
    assert not (tmp_path / "gh.log").exists()


def test_without_a_token_the_lane_runs_in_full_and_says_so(tmp_path: Path, repo: Repo) -> None:
    base = repo.rev("main")
    done, folder = _run(tmp_path, repo, base, [_run_record(4, base)], token="")
    assert done.returncode == 0, done.stderr
    assert not list(folder.iterdir())
    assert "no coverage-map-token secret" in done.stdout
    assert not (tmp_path / "gh.log").exists()
