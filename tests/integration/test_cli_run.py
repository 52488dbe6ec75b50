"""`lanegate run` end to end as a subprocess on real temp repositories: rule ids, out-dir safety, Ctrl-C."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from lanegate.demo.bundle import load_shipped
from lanegate.demo.scenario import build_repo, heads
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


def test_agent_head_fails_with_the_exact_rule_ids_on_a_live_terminal(tmp_path: Path) -> None:
    material = load_shipped()
    repo = tmp_path / "repo"
    build_repo(material, repo)
    git(repo, "checkout", "-q", "agent")
    env = _env(COLUMNS="120")
    env.pop("NO_COLOR", None)
    code, screen = run_in_pty([*LANEGATE, "run"], repo, env)  # default base: merge base with main
    assert code == 1, screen
    agent = next(h for h in heads(material) if h.name == "agent")
    report = json.loads((repo / ".lanegate" / "score-report.json").read_text())
    assert report["verdict"] == "fail"
    assert {f["rule_id"] for f in report["fails"]} == agent.expected_rule_ids
    # the live display redrew progress in place: the lanes' own events, with counts and elapsed
    assert "\x1b[6F" in screen and "\x1b[2K" in screen
    assert re.search(r"flake +running +\d+\.\ds  replay \d of 3", screen)
    assert re.search(r"fixture +running +\d+\.\ds  (files|cases) \d of \d", screen)
    # the table names every fail with its rule id and location, then the report path
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
    for rule_id in agent.expected_rule_ids:
        assert f"  {rule_id}  " in plain
    assert "  lint-retry-construct  .github/workflows/ci.yml:15  " in plain
    assert "verdict: FAIL" in plain
    assert "report:  .lanegate/score-report.json" in plain
    names = sorted(p.name for p in (repo / ".lanegate").iterdir())
    for name in (
        "property.json",
        "fixture.json",
        "flake.json",
        "lint.json",
        "score-report.json",
        "score-summary.md",
    ):
        assert name in names
    assert not [n for n in names if n.startswith(outdir.STAGING_PREFIX)]
    assert git(repo, "status", "--porcelain") == ""  # .lanegate/ ignores itself


def test_json_format_prints_exactly_the_report(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "repo")
    repo.write("lanegate.toml", '[fixtures]\nallow_none = true\n[lane]\nname = "t"\n')
    repo.write("README.md", "hello\n")
    repo.commit("base")
    repo.branch("docs")
    repo.write("README.md", "hello again\n")
    repo.commit("docs only")
    done = _lanegate(repo.path, "--format", "json", "--quiet", "--out", "out")
    report = json.loads(done.stdout)
    saved = json.loads((repo.path / "out" / "score-report.json").read_text())
    assert report == saved
    assert done.returncode == (0 if report["verdict"] == "pass" else 1)
    # no terminal: plain lines on stderr, a start and an end line per step
    assert "\x1b[" not in done.stderr
    for step in ("property", "fixture", "flake", "lint", "score"):
        assert f"lanegate: {step}: running" in done.stderr
        assert re.search(rf"lanegate: {step}: \w+ in \d+\.\ds", done.stderr)


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
