"""What a lane job runs imports without the score job's packages.

action/install.sh installs PyGithub and actions-toolkit (which needs PyGithub) into the score job's
venv only. `lanegate authorship` runs in the flake job (for the PR body) and as the action's
`authorship` step; it once set its output through actions-toolkit, so on GitHub, where the flake job
has no toolkit, it died with an internal error (act's runs never saw it: they use one interpreter
with everything installed).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RECORDED = Path(__file__).parent / "recorded"
# a Python started like a lane job's venv: the score job's packages cannot be imported
WITHOUT_SCORE_PACKAGES = """\
import sys
class _Absent:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("actions_toolkit", "github"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, _Absent())
from lanegate.cli.main import main
raise SystemExit(main(sys.argv[1:]))
"""


def _event(tmp_path: Path, labels: list[str]) -> Path:
    pr = json.loads((RECORDED / "pull_7.json").read_text())
    pr["labels"] = [{"name": label} for label in labels]
    pr["user"] = {"login": "octocat", "type": "User"}
    pr["body"] = ""
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"action": "opened", "pull_request": pr}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("labels", "policy", "kind"),
    [
        (["agent"], "", "agent"),
        ([], "[authorship]\nhuman_logins = ['octocat']\n", "human"),
    ],
)
def test_authorship_sets_its_output_without_the_toolkit(
    tmp_path: Path, labels: list[str], policy: str, kind: str
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    if policy:
        (repo / "lanegate.toml").write_text(policy, encoding="utf-8")
    output = tmp_path / "output.txt"
    output.touch()
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_SCORE_PACKAGES, "authorship", "--event"]
        + [str(_event(tmp_path, labels)), "--repo", str(repo)],
        capture_output=True,
        text=True,
        env={"GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": str(output), "PATH": "/usr/bin:/bin"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{kind}\n"
    lines = output.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("authorship<<ghadelimiter_") and lines[1] == kind
    assert lines[2] == lines[0].removeprefix("authorship<<")


def test_the_blocker_does_block_the_score_packages(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_SCORE_PACKAGES, "publish", "--report", "x.json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )
    assert "actions_toolkit" in done.stderr or "github" in done.stderr, done.stderr
