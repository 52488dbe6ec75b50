"""`lanegate run` end to end as a subprocess on real temp repositories: rule ids, out-dir safety, Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from lanegate.run import outdir
from tests.gitrepo import GIT_ENV, Repo, git
from tests.integration.ptyrun import run_in_pty

LANEGATE = [sys.executable, "-m", "lanegate"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTEST_"))}
    env.update(GIT_ENV)
    env.update(extra)
    return env


def _lanegate(repo: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LANEGATE, "run", *args],
        cwd=repo,
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


CI_WORKFLOW = """name: ci
on: [pull_request]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: python -m pytest -q
"""
EXPECTED = {"property-no-cases", "lint-retry-construct", "gate-input-changed"}


def _docs_and_workflow_repo(tmp_path: Path) -> Repo:
    """main: a workflow; head: a README change and `continue-on-error` on the test step."""
    repo = Repo(tmp_path / "repo")
    repo.write("lanegate.toml", "[fixtures]\nallow_none = true\n")
    repo.write(".github/workflows/ci.yml", CI_WORKFLOW)
    repo.write("README.md", "hello\n")
    repo.commit("base")
    repo.branch("agent")
    repo.write("README.md", "hello again\n")
    repo.write(".github/workflows/ci.yml", CI_WORKFLOW + "        continue-on-error: true\n")
    repo.commit("docs, and keep CI green")
    return repo


def test_run_on_a_terminal_shows_progress_then_the_table(tmp_path: Path) -> None:
    repo = _docs_and_workflow_repo(tmp_path)
    env = _env(COLUMNS="120")
    env.pop("NO_COLOR", None)
    code, screen = run_in_pty([*LANEGATE, "run"], repo.path, env)  # base: merge base with main
    assert code == 1, screen
    report = json.loads((repo.path / ".lanegate" / "score-report.json").read_text())
    assert report["verdict"] == "fail"
    assert {f["rule_id"] for f in report["fails"]} == EXPECTED
    # the live display redrew the block in place, with each step's state and elapsed time
    assert "\x1b[6F" in screen and "\x1b[2K" in screen and "\x1b[?25h" in screen
    assert re.search(r"property +running +\d+\.\ds", screen)
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
    assert re.search(r"x lint +fail +\d+\.\ds  1 finding", plain)
    # the table: every fail with its rule id, file:line and fix, then where the report is
    for rule_id in EXPECTED:
        assert f"  {rule_id}  " in plain
    assert "  lint-retry-construct  .github/workflows/ci.yml:8  " in plain
    assert "      fix: " in plain
    assert "verdict: FAIL" in plain
    assert "report:  .lanegate/score-report.json" in plain
    assert "summary: .lanegate/score-summary.md" in plain
    names = sorted(p.name for p in (repo.path / ".lanegate").iterdir())
    for name in ("property.json", "fixture.json", "flake.json", "lint.json", "score-report.json"):
        assert name in names
    assert not [n for n in names if n.startswith(outdir.STAGING_PREFIX)]
    assert git(repo.path, "status", "--porcelain") == ""  # .lanegate/ ignores itself


@pytest.fixture(scope="module")
def json_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Repo, subprocess.CompletedProcess[str]]:
    """One sandboxed `lanegate run --format json --quiet --out out` of the docs-and-workflow head,
    read by every test that needs that run (the repository stays as the run left it)."""
    repo = _docs_and_workflow_repo(tmp_path_factory.mktemp("json-run"))
    return repo, _lanegate(
        repo.path, "--format", "json", "--quiet", "--out", "out", "--base", "main"
    )


def test_json_format_prints_exactly_the_report(
    json_run: tuple[Repo, subprocess.CompletedProcess[str]],
) -> None:
    repo, done = json_run
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report == json.loads((repo.path / "out" / "score-report.json").read_text())
    assert {f["rule_id"] for f in report["fails"]} == EXPECTED
    # no terminal: plain lines on stderr, a start and an end line per step
    assert "\x1b[" not in done.stderr
    for step in ("property", "fixture", "flake", "lint", "score"):
        assert f"lanegate: {step}: running" in done.stderr
        assert re.search(rf"lanegate: {step}: [\w-]+ in \d+\.\ds", done.stderr)


def test_no_sandbox_is_recorded_and_fails_an_agent_diff(tmp_path: Path) -> None:
    repo = _docs_and_workflow_repo(tmp_path)
    done = _lanegate(
        repo.path, "--format", "json", "--quiet", "--out", "out", "--base", "main", "--no-sandbox"
    )
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert {f["rule_id"] for f in report["fails"]} == EXPECTED | {"sandbox-disabled"}
    for lane in ("property", "fixture", "flake"):
        ledger = json.loads((repo.path / "out" / f"{lane}.json").read_text())
        assert ledger["sandbox"]["mode"] == "none"


def test_the_same_run_sandboxed_records_bwrap_without_network(
    json_run: tuple[Repo, subprocess.CompletedProcess[str]],
) -> None:
    # the sandboxed twin of the run above: the same head, without --no-sandbox
    repo, sandboxed = json_run
    ledger = json.loads((repo.path / "out" / "flake.json").read_text())
    assert ledger["sandbox"]["mode"] == "bwrap" and ledger["sandbox"]["network"] is False
    assert {f["rule_id"] for f in json.loads(sandboxed.stdout)["fails"]} == EXPECTED


def test_without_bubblewrap_the_lanes_fail_closed_with_one_line(tmp_path: Path) -> None:
    repo = _docs_and_workflow_repo(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("git", "sh"):
        (bin_dir / tool).symlink_to(shutil.which(tool) or f"/usr/bin/{tool}")
    done = subprocess.run(
        [*LANEGATE, "run", "--quiet", "--out", "out", "--base", "main"],
        cwd=repo.path,
        env=_env(PATH=str(bin_dir)),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert (
        "cannot build a sandbox: bubblewrap (bwrap) is not installed" in done.stdout + done.stderr
    )
    report = json.loads((repo.path / "out" / "score-report.json").read_text())
    assert report["verdict"] == "fail"
    assert {f["rule_id"] for f in report["fails"]} >= {"ledger-missing"}


def test_a_foreign_out_dir_is_refused_and_untouched(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("a.py", "x = 1\n")
    repo.commit("base")
    repo.branch("work")
    repo.write("a.py", "x = 2\n")
    repo.commit("change")
    (repo.path / "results").mkdir()
    (repo.path / "results" / "mine.txt").write_text("keep me")
    done = _lanegate(repo.path, "--out", "results")
    assert done.returncode == 2
    assert "not made by lanegate run" in done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in (repo.path / "results").iterdir()) == ["mine.txt"]


def test_without_a_default_branch_it_asks_for_base(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    git(repo.path, "checkout", "-q", "-b", "work")
    repo.write("a.py", "x = 1\n")
    repo.commit("only")
    done = _lanegate(repo.path)
    assert done.returncode == 2
    assert "cannot tell the default branch" in done.stderr
    assert "pass --base REF" in done.stderr
    assert not (repo.path / ".lanegate").exists()


def test_a_base_that_names_two_refs_is_refused_before_any_lane(tmp_path: Path) -> None:
    """Red team: the agent pushed `refs/heads/origin/main` (a relaxed policy, deleted tests) beside
    the remote's `refs/remotes/origin/main`; `--base origin/main` took the agent's commit."""
    repo = _docs_and_workflow_repo(tmp_path)
    git(repo.path, "update-ref", "refs/remotes/origin/main", repo.rev("main"))
    git(repo.path, "update-ref", "refs/heads/origin/main", repo.rev("agent"))
    done = _lanegate(repo.path, "--base", "origin/main")
    assert done.returncode == 2, done.stdout + done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "'origin/main' is ambiguous" in line
    assert "refs/heads/origin/main" in line and "refs/remotes/origin/main" in line
    assert "pass the full ref name" in line
    assert not (repo.path / ".lanegate").exists()


def _marked(mark: str) -> list[int]:
    """Processes whose environment carries `mark` (children inherit it wherever they are re-parented)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            environ = Path(f"/proc/{entry.name}/environ").read_bytes()
        except OSError:
            continue
        if f"LANEGATE_TEST_MARK={mark}".encode() in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_stops_every_child_and_leaves_no_ledger(
    tmp_path: Path, signum: int, code: int
) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("lanegate.toml", "[fixtures]\nallow_none = true\n")
    repo.write("lib.py", "def double(x):\n    return 2 * x\n")
    repo.commit("base")
    repo.branch("slow")
    repo.write(
        "tests/test_slow.py",
        "import time\n\nfrom lib import double\n\n\ndef test_slow():\n"
        "    time.sleep(60)\n    assert double(2) == 4\n",
    )
    repo.write("conftest.py", "")
    repo.commit("a slow test")
    # a finished earlier run whose ledgers must not survive this one
    old = repo.path / ".lanegate"
    outdir.claim(old).release()
    for name in ("property.json", "score-report.json"):
        (old / name).write_text('{"verdict": "pass"}')
    mark = uuid.uuid4().hex
    proc = subprocess.Popen(
        [*LANEGATE, "run", "--quiet"],
        cwd=repo.path,
        env=_env(LANEGATE_TEST_MARK=mark),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # the run's own handlers are set once it says what it judges (before that, git's children
    # carry the mark too, and a signal then meets a process that has not started the run)
    assert proc.stderr is not None
    said = [proc.stderr.readline()]
    while said[-1] and "judging HEAD against" not in said[-1]:
        said.append(proc.stderr.readline())
    assert said[-1], "".join(said)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # wait until the tests' own processes are running
        if len(_marked(mark)) >= 2:
            break
        time.sleep(0.05)
    time.sleep(0.5)
    assert proc.poll() is None, proc.communicate()
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == code, err
    assert "interrupted" in err
    assert "Traceback" not in err
    time.sleep(0.2)
    assert _marked(mark) == []  # no child, grandchild or orphan survives
    left = sorted(p.name for p in old.iterdir())
    assert left == [".gitignore", ".lanegate-run.json", ".lock"]


_CLAMP = """

def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
"""
_CLAMP_TEST = """from calc import clamp


def test_clamp():
    assert clamp(5, 0, 10) == 5
    assert clamp(-1, 0, 10) == 0
    assert clamp(11, 0, 10) == 10
    assert clamp(0, 0, 10) == 0
    assert clamp(10, 0, 10) == 10
"""


def _human_commit_repo(tmp_path: Path) -> Repo:
    """main: a package with one tested function; head: an ordinary commit, a new function and a
    plain unit test of it (no Hypothesis, no oracle)."""
    repo = Repo(tmp_path / "repo")
    repo.write(
        "pyproject.toml",
        '[project]\nname = "calc"\nversion = "0"\n\n[tool.lanegate.fixtures]\nallow_none = true\n\n'
        '[tool.pytest.ini_options]\npythonpath = ["src"]\n',
    )
    repo.write("src/calc/__init__.py", "def add(a, b):\n    return a + b\n")
    repo.write(
        "tests/test_add.py",
        "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n",
    )
    repo.commit("base")
    repo.branch("feature")
    repo.write("src/calc/__init__.py", "def add(a, b):\n    return a + b\n" + _CLAMP)
    repo.write("tests/test_clamp.py", _CLAMP_TEST)
    repo.commit("clamp")
    return repo


def test_an_ordinary_human_commit_passes_in_lane_a_and_fails_as_an_agent(tmp_path: Path) -> None:
    repo = _human_commit_repo(tmp_path)
    common = ("--format", "json", "--quiet", "--base", "main")
    done = _lanegate(repo.path, *common, "--out", "human", "--authorship", "human")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["verdict"] == "pass" and report["fails"] == []
    # the unit test killed enough mutants (unit tests are evidence); the missing oracle is a note
    assert [(w["rule_id"], w["severity"]) for w in report["warns"]] == [
        ("property-missing-oracle", "note")
    ]
    summary = (repo.path / "human" / "score-summary.md").read_text()
    assert "### Follow-ups" in summary and "property-missing-oracle" in summary
    assert "scored by the Lane A column" in summary

    done = _lanegate(repo.path, *common, "--out", "agent")
    assert done.returncode == 1, done.stdout + done.stderr
    fails = {f["rule_id"] for f in json.loads(done.stdout)["fails"]}
    assert fails == {
        "property-missing-oracle",
        "property-mutant-budget",
        "property-function-budget",
    }
