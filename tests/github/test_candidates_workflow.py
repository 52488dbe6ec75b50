"""lane-b-candidates.yml: its shape (the base's work once, a matrix per lane over the candidates,
read-only permissions, a combine job that runs whatever the candidates did) and its refs check."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "lane-b-candidates.yml"


def _load() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return loaded


def test_the_base_is_built_once_and_every_lane_is_a_matrix_over_the_candidates() -> None:
    doc = _load()
    assert doc["permissions"] == {}
    jobs = doc["jobs"]
    assert set(jobs) == {"plan", "base", "property", "fixture", "flake", "score", "combine"}
    base_steps = jobs["base"]["steps"]
    assert base_steps[0]["with"]["ref"] == "${{ inputs.base-ref }}"  # no candidate's code
    assert any(s.get("with", {}).get("lane") == "coverage-map" for s in base_steps)
    for lane in ("property", "fixture", "flake", "score"):
        job = jobs[lane]
        assert job["strategy"]["matrix"] == "${{ fromJSON(needs.plan.outputs.matrix) }}"
        assert job["strategy"]["fail-fast"] is False
        assert job["steps"][0]["with"]["ref"] == "${{ matrix.ref }}"
        assert job["steps"][0]["with"]["persist-credentials"] is False
    assert "base" in jobs["property"]["needs"]
    maps = [s for s in jobs["property"]["steps"] if s.get("with", {}).get("lane") == "property"]
    assert maps[0]["with"]["coverage-map"] == "${{ runner.temp }}/lanegate-coverage-map"
    # each candidate is scored from its own ledgers only
    download = jobs["score"]["steps"][1]["with"]["pattern"]
    assert download.startswith("lanegate-candidate-${{ matrix.index }}-")
    assert "always()" in jobs["combine"]["if"]
    for name, job in jobs.items():
        granted = job.get("permissions", {})
        assert all(v in ("read", "none") for v in granted.values()), name


def _plan(refs: str, tmp_path: Path) -> tuple[int, str, str]:
    step = _load()["jobs"]["plan"]["steps"][0]
    output = tmp_path / "output"
    output.write_text("")
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", step["run"]],
        env={"PATH": "/usr/bin:/bin", "REFS": refs, "GITHUB_OUTPUT": str(output)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done.returncode, done.stdout, output.read_text()


def test_refs_become_the_matrix(tmp_path: Path) -> None:
    code, out, written = _plan('["attempt-1", "feature/x"]', tmp_path)
    assert code == 0, out
    matrix = json.loads(written.strip().removeprefix("matrix="))
    assert matrix == {
        "include": [{"index": 0, "ref": "attempt-1"}, {"index": 1, "ref": "feature/x"}]
    }


@pytest.mark.parametrize(
    "refs",
    ["", "[]", '"main"', '["--upload-pack=x"]', "[1]", '[""]', json.dumps(["r"] * 33), "[ nope"],
)
def test_bad_refs_fail_closed(refs: str, tmp_path: Path) -> None:
    code, out, written = _plan(refs, tmp_path)
    assert code != 0
    assert "::error title=lanegate/input::" in out
    assert "matrix=" not in written
