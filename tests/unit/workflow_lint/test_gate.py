"""The gate's lint on real git repositories: what Lane B runs and what the diff adds fail, the rest of
the repository is reported as Lane A and never fails by itself."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest

from lanegate.errors import UsageError
from lanegate.policy import load_policy
from lanegate.workflow_lint.gate import lint_gate
from lanegate.workflow_lint.output import FORMATS
from lanegate.workflow_lint.scope import Scope
from tests.gitrepo import Repo

TODAY = date(2026, 6, 1)
CALLER = """on: pull_request
jobs:
  gate:
    uses: lanegate/lanegate/.github/workflows/lane-b.yml@v1
    with:
      install: -r requirements/test.txt
"""
CALLER_RETRYING = """on: pull_request
jobs:
  gate:
    uses: lanegate/lanegate/.github/workflows/lane-b.yml@v1
  again:
    needs: gate
    if: failure()
    uses: ./.github/workflows/rerun.yml
"""
RERUN = """on: workflow_call
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: ./ci/run-tests.sh
"""
NIGHTLY = """on: schedule
jobs:
  dev:
    runs-on: ubuntu-latest
    continue-on-error: true
    steps:
      - run: pytest
"""
RETRY_TEST = """def test_b():
    for _ in range(3):
        try:
            act()
            break
        except Exception:
            pass
"""


def _scopes(repo: Repo, base: str = "main", **kwargs: object) -> dict[tuple[str, str], Scope]:
    result = lint_gate(repo.path, base=base, policy=load_policy(repo.path), today=TODAY, **kwargs)  # type: ignore[arg-type]
    return {(f.primary.path, f.rule_id): result.scope_of(f) for f in result.findings}


@pytest.fixture
def base_repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("r")
    repo.write(".github/workflows/gate.yml", CALLER)
    repo.write(".github/workflows/nightly.yml", NIGHTLY)
    repo.write("requirements/test.txt", "pytest\n-r ../ci/extra-deps.txt\n")
    repo.write("ci/extra-deps.txt", "hypothesis\n")
    repo.write("requirements/docs.txt", "sphinx\npytest-rerunfailures\n")
    repo.write("tests/test_a.py", RETRY_TEST.replace("test_b", "test_a"))
    repo.commit("base")
    _branch(repo, "pr")
    return repo


def _branch(repo: Repo, name: str) -> None:
    repo.branch(name)
    repo.checkout(name)


def test_lane_a_is_reported_and_never_fails_by_itself(base_repo: Repo) -> None:
    base_repo.write("src/x.py", "x = 1\n")
    base_repo.commit("pr")
    result = lint_gate(base_repo.path, base="main", policy=load_policy(base_repo.path), today=TODAY)
    scopes = {(f.primary.path, f.rule_id): result.scope_of(f) for f in result.findings}
    assert scopes == {
        (".github/workflows/nightly.yml", "continue-on-error"): Scope.LANE_A,
        ("requirements/docs.txt", "rerun-plugin-dependency"): Scope.LANE_A,
    }
    # the existing test's retry loop is not judged: the diff does not touch it
    assert result.gate and result.clean and result.gating == ()


def test_whole_repository_tests_only_when_asked(base_repo: Repo) -> None:
    base_repo.commit("pr")
    scopes = _scopes(base_repo, all_tests=True)
    assert scopes[("tests/test_a.py", "test-retry-loop")] is Scope.LANE_A


def test_what_the_diff_adds_anywhere_fails(base_repo: Repo) -> None:
    base_repo.write("tests/test_b.py", RETRY_TEST)
    base_repo.write(".github/workflows/nightly.yml", NIGHTLY + "      - run: make docs || true\n")
    base_repo.commit("pr")
    scopes = _scopes(base_repo)
    assert scopes[("tests/test_b.py", "test-retry-loop")] is Scope.DIFF
    # the construct the diff did not touch in the same file stays Lane A
    assert scopes[(".github/workflows/nightly.yml", "continue-on-error")] is Scope.LANE_A
    assert ("tests/test_a.py", "test-retry-loop") not in scopes


def test_a_conftest_lanegate_cannot_parse_is_a_finding_of_the_gate(base_repo: Repo) -> None:
    # discovery reads a conftest's collect_ignore: one that does not parse is reported, not skipped
    base_repo.write("tests/conftest.py", "collect_ignore = [\n")
    base_repo.commit("pr")
    scopes = _scopes(base_repo)
    assert scopes[("tests/conftest.py", "unparseable-file")] in (Scope.DIFF, Scope.LANE_B)


def test_what_lane_b_runs_fails_even_unchanged(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("r")
    repo.write(".github/workflows/gate.yml", CALLER_RETRYING)
    repo.write(".github/workflows/rerun.yml", RERUN)
    repo.write("ci/run-tests.sh", "#!/bin/sh\nfor i in 1 2 3; do pytest && break; done\n")
    repo.write("pyproject.toml", '[tool.pytest.ini_options]\naddopts = "--reruns 2"\n')
    repo.write("tools/pyproject.toml", '[tool.pytest.ini_options]\naddopts = "--reruns 2"\n')
    repo.write("tests/conftest.py", "pytest_plugins = ['pytest_rerunfailures']\n")
    repo.commit("base")
    _branch(repo, "pr")
    repo.write("src/x.py", "x = 1\n")
    repo.commit("pr")
    scopes = _scopes(repo)
    assert (
        scopes[("ci/run-tests.sh", "shell-retry-loop")] is Scope.LANE_B
    )  # caller -> rerun.yml -> script
    assert scopes[("pyproject.toml", "pytest-config-rerun")] is Scope.LANE_B
    assert scopes[("tests/conftest.py", "rerun-plugin-load")] is Scope.LANE_B
    assert scopes[("tools/pyproject.toml", "pytest-config-rerun")] is Scope.LANE_A


def test_requirements_the_install_input_names_are_lane_b(base_repo: Repo) -> None:
    base_repo.write("ci/extra-deps.txt", "hypothesis\nflaky\n")  # reached through -r, any name
    base_repo.write("tests/test_c.py", FLAKY_TEST)  # a mark the plugin acts on
    base_repo.commit("pr")
    scopes = _scopes(base_repo)
    assert scopes[("ci/extra-deps.txt", "rerun-plugin-dependency")] is Scope.LANE_B
    assert scopes[("requirements/docs.txt", "rerun-plugin-dependency")] is Scope.LANE_A


FLAKY_TEST = "import pytest\n\n\n@pytest.mark.flaky(reruns=2)\ndef test_c():\n    pass\n"


def test_a_rerun_plugin_nothing_activates_fails_only_when_the_diff_adds_it(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = make_repo("r")
    repo.write(".github/workflows/gate.yml", CALLER)
    repo.write("requirements/test.txt", "pytest\nflaky\n")
    repo.write("pyproject.toml", '[dependency-groups]\ntest = ["pytest-rerunfailures"]\n')
    repo.commit("base")
    _branch(repo, "pr")
    repo.write("requirements/test.txt", "pytest\nflaky\npytest-retry\n")
    repo.commit("pr")
    result = lint_gate(repo.path, base="main", policy=load_policy(repo.path), today=TODAY)
    scopes = {(f.primary.path, f.primary.line): result.scope_of(f) for f in result.findings}
    # in what Lane B installs, but nothing marks a test or passes a rerun flag: it cannot act
    assert scopes[("requirements/test.txt", 2)] is Scope.LANE_A
    assert scopes[("pyproject.toml", 2)] is Scope.LANE_A
    assert scopes[("requirements/test.txt", 3)] is Scope.DIFF  # the diff adds one: it fails
    assert all("dormant" in f.message for f in result.findings)
    # a mark anywhere wakes every declared plugin (a mark does not say which plugin reads it)
    repo.write("tests/test_c.py", FLAKY_TEST)
    repo.commit("mark")
    scopes = _scopes(repo)
    assert scopes[("requirements/test.txt", "rerun-plugin-dependency")] is Scope.LANE_B
    assert scopes[("pyproject.toml", "rerun-plugin-dependency")] is Scope.LANE_B


def test_lane_a_findings_take_the_policy_exemptions(base_repo: Repo) -> None:
    base_repo.write(
        "lanegate.toml",
        '[lint]\nexemptions = [{rule = "continue-on-error", target = ".github/workflows/nightly.yml",'
        ' reason = "dev Python", expires = 2026-12-31}]\n',
    )
    base_repo.commit("pr")
    result = lint_gate(base_repo.path, base="main", policy=load_policy(base_repo.path), today=TODAY)
    assert [f.rule_id for f in result.exempted] == ["continue-on-error"]
    assert result.scope_of(result.exempted[0]) is Scope.LANE_A


def test_reports_say_the_scope(base_repo: Repo) -> None:
    base_repo.write("tests/test_b.py", RETRY_TEST)
    base_repo.commit("pr")
    result = lint_gate(base_repo.path, base="main", policy=load_policy(base_repo.path), today=TODAY)
    report = json.loads(FORMATS["json"](result, "0"))
    assert report["gate"] is True
    assert {(f["path"], f["scope"]) for f in report["findings"]} == {
        (".github/workflows/nightly.yml", "lane-a"),
        ("requirements/docs.txt", "lane-a"),
        ("tests/test_b.py", "diff"),
    }
    sarif = json.loads(FORMATS["sarif"](result, "0"))
    levels = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: (
            r["properties"]["scope"],
            r["level"],
        )
        for r in sarif["runs"][0]["results"]
    }
    assert levels["tests/test_b.py"] == ("diff", "error")
    assert levels["requirements/docs.txt"] == ("lane-a", "warning")
    text = FORMATS["text"](result, "0")
    assert "[diff: added by this change]" in text and "[lane-a: reported only]" in text
    assert text.splitlines()[-1].endswith("1 finding, 2 in Lane A (reported only)")


def test_a_named_caller_must_be_a_workflow(base_repo: Repo) -> None:
    base_repo.commit("pr")
    with pytest.raises(UsageError, match="--caller ci/extra-deps.txt: not a workflow"):
        _scopes(base_repo, callers=["ci/extra-deps.txt"])


def test_an_unknown_base_is_a_usage_error(base_repo: Repo) -> None:
    with pytest.raises(UsageError, match="--base nowhere"):
        lint_gate(base_repo.path, base="nowhere", policy=load_policy(base_repo.path), today=TODAY)


def test_cli_exit_code_follows_the_gating_findings(base_repo: Repo) -> None:
    base_repo.commit("pr")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "lanegate", "lint", *args],
            cwd=base_repo.path,
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )

    assert run("--gate", "--base", "main").returncode == 0  # only Lane A findings
    assert run(".").returncode == 1  # a path lint keeps linting everything it is given
    missing = run("--gate")
    assert missing.returncode == 2 and "--gate needs --base" in missing.stderr
    base_repo.write("tests/test_b.py", RETRY_TEST)
    base_repo.commit("pr 2")
    assert run("--gate", "--base", "main").returncode == 1


def test_paths_are_relative_to_a_subfolder_root(base_repo: Repo) -> None:
    base_repo.write("pkg/tests/test_c.py", RETRY_TEST)
    base_repo.write("pkg/.github/workflows/x.yml", NIGHTLY)
    base_repo.commit("pr")
    result = lint_gate(
        base_repo.path / "pkg", base="main", policy=load_policy(base_repo.path), today=TODAY
    )
    scopes = {(f.primary.path, f.rule_id): result.scope_of(f) for f in result.findings}
    assert scopes[("tests/test_c.py", "test-retry-loop")] is Scope.DIFF
    assert scopes[(".github/workflows/x.yml", "continue-on-error")] is Scope.DIFF
    assert Path(base_repo.path / "pkg").is_dir()


def test_the_action_lints_with_the_gate_scope(base_repo: Repo, tmp_path: Path) -> None:
    """action/run.sh's lint lane: --gate with the base and the caller from github.workflow_ref."""
    base_repo.write(
        ".github/workflows/agent.yml", NIGHTLY.replace("on: schedule", "on: pull_request")
    )
    base_repo.commit("pr")
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "LANEGATE_PY": sys.executable,
        "LANEGATE_LANE": "lint",
        "LANEGATE_BASE": "main",
        "RUNNER_TEMP": str(runner_temp),
        "GITHUB_OUTPUT": str(tmp_path / "out.txt"),
        "GITHUB_REPOSITORY": "octo/repo",
        "GITHUB_WORKFLOW_REF": "octo/repo/.github/workflows/agent.yml@refs/pull/1/merge",
    }
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        ["bash", str(root / "action" / "run.sh")],
        cwd=base_repo.path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    # the named caller has continue-on-error on its test job: Lane B's scope, so the lane fails
    assert done.returncode == 1, done.stdout + done.stderr
    outputs = dict(line.split("=", 1) for line in (tmp_path / "out.txt").read_text().splitlines())
    assert outputs["verdict"] == "fail"
    report = json.loads(Path(outputs["ledger-path"]).read_text())
    assert report["gate"] is True
    assert {(f["path"], f["scope"]) for f in report["findings"]} == {
        (".github/workflows/agent.yml", "lane-b"),
        (".github/workflows/nightly.yml", "lane-a"),
        ("requirements/docs.txt", "lane-a"),
    }
