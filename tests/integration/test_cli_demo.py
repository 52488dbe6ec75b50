"""`lanegate demo` end to end as a subprocess: both heads judged as the scenario says, exact rule ids."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from lanegate.demo.bundle import load_shipped
from lanegate.demo.scenario import heads
from tests.gitrepo import GIT_ENV, git
from tests.integration.ptyrun import run_in_pty

LANEGATE = [sys.executable, "-m", "lanegate"]


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTEST_"))}
    env.update(GIT_ENV)
    return env


def test_demo_fails_the_agent_head_on_all_four_and_passes_the_honest_one(tmp_path: Path) -> None:
    keep = tmp_path / "demo"
    env = {**_env(), "COLUMNS": "120"}
    env.pop("NO_COLOR", None)
    code, screen = run_in_pty([*LANEGATE, "demo", "--keep", str(keep)], tmp_path, env, timeout=400)
    out = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen)
    assert code == 0, out
    # on a terminal each head gets the live display, fed by the lanes' own progress events
    assert "\x1b[6F" in screen
    assert re.search(r"flake +running +\d+\.\ds  replay \d of 3", out)
    assert re.search(r"property +running +\d+\.\ds  ", out)
    assert "agent head: FAIL, as expected" in out
    assert "honest head: PASS, as expected" in out
    assert re.search(r"demo: both heads judged as expected in \d+\.\ds", out)
    assert "NOT CAUGHT" not in out
    expected = {head.name: head for head in heads(load_shipped())}
    agent = json.loads((keep / "ledgers" / "agent" / "score-report.json").read_text())
    assert agent["verdict"] == "fail"
    fired = {fail["rule_id"] for fail in agent["fails"]}
    assert fired == expected["agent"].expected_rule_ids
    # each of the four planted problems is answered by its own rule
    assert {
        "flake-nondeterministic",
        "fixture-drift",
        "property-missing-oracle",
        "lint-retry-construct",
    } <= fired
    by_rule = {(f["rule_id"], f["path"]) for f in agent["fails"]}
    assert ("property-missing-oracle", "tests/test_codec_stable.py") in by_rule
    assert ("lint-retry-construct", ".github/workflows/ci.yml") in by_rule
    assert ("fixture-drift", "tests/fixtures/words.expected") in by_rule
    lint = json.loads((keep / "ledgers" / "agent" / "lint.json").read_text())
    assert [f["rule_id"] for f in lint["findings"]] == ["continue-on-error"]
    honest = json.loads((keep / "ledgers" / "honest" / "score-report.json").read_text())
    assert honest["verdict"] == "pass"
    assert honest["fails"] == []
    # the kept repository has the base and both heads, and nothing of lanegate's in its history
    branches = git(keep / "repo", "branch", "--format=%(refname:short)").split()
    assert sorted(branches) == ["agent", "honest", "main"]
    assert git(keep / "repo", "status", "--porcelain") == ""


def test_demo_refuses_a_non_empty_keep_dir(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("x")
    done = subprocess.run(
        [*LANEGATE, "demo", "--keep", str(tmp_path)],
        env=_env(),
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 2
    assert "not an empty directory" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]
