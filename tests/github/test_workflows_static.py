"""Static checks on our action and workflows for what act would let through and GitHub would not.

act sets INPUT_* inside composite actions (GitHub does not), accepts a composite `run:` step without
`shell:` (GitHub rejects it), and runs a job with `continue-on-error` differently: so these rules are
checked on the YAML itself, not by running it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
LANE_B = ROOT / ".github" / "workflows" / "lane-b.yml"
CI = ROOT / ".github" / "workflows" / "ci.yml"
EXAMPLES = sorted((ROOT / "examples").glob("*.yml"))
WORKFLOWS = [LANE_B, CI, *EXAMPLES]
COMPOSITES = [ACTION, *sorted((ROOT / "tests" / "act" / "stand-ins").glob("*/action.yml"))]
EXPRESSION = re.compile(r"\$\{\{(.*?)\}\}", re.S)
PINNED = re.compile(
    r"^\s*(?:-\s*)?uses:\s*([\w.-]+/[\w./-]+)@([0-9a-f]{40})\s+#\s*v\d+(\.\d+)*\s*$"
)
FIRST_PARTY = "lanegate/lanegate"


def _load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    return data


def _steps(path: Path) -> list[tuple[str, dict[str, Any]]]:
    doc = _load(path)
    if "runs" in doc:
        return [(f"{path.name} step {i}", s) for i, s in enumerate(doc["runs"].get("steps", []))]
    return [
        (f"{path.name} job {job} step {i}", step)
        for job, body in doc.get("jobs", {}).items()
        for i, step in enumerate(body.get("steps", []))
    ]


def test_files_under_check_exist() -> None:
    assert ACTION.is_file() and LANE_B.is_file() and CI.is_file()
    assert len(EXAMPLES) >= 3 and len(COMPOSITES) >= 5


@pytest.mark.parametrize("path", COMPOSITES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_composite_run_step_names_its_shell(path: Path) -> None:
    runs = _load(path)["runs"]
    assert runs["using"] == "composite"
    for where, step in _steps(path):
        if "run" in step:
            assert step.get("shell") in ("bash", "sh", "python", "pwsh"), f"{where}: no shell:"


@pytest.mark.parametrize("path", [*COMPOSITES, *WORKFLOWS], ids=lambda p: str(p.relative_to(ROOT)))
def test_no_expression_inside_run(path: Path) -> None:
    for where, step in _steps(path):
        script = step.get("run")
        if script is not None:
            found = EXPRESSION.findall(str(script))
            assert not found, (
                f"{where}: ${{{{ {found[0].strip()} }}}} inside run: (pass it via env:)"
            )


def test_every_action_input_reaches_scripts_through_env_or_with() -> None:
    doc = _load(ACTION)
    used: set[str] = set()
    for _, step in _steps(ACTION):
        for mapping in (step.get("env") or {}, step.get("with") or {}):
            for value in mapping.values():
                used.update(re.findall(r"inputs\.([\w-]+)", str(value)))
        # `if:` may test an input; it is evaluated by the runner, not by a shell
    declared = set(doc["inputs"])
    assert declared - used == set(), f"inputs never passed to a step: {sorted(declared - used)}"
    assert all(doc["inputs"][name].get("description") for name in declared)
    scripts = "".join(p.read_text() for p in (ROOT / "action").glob("*.sh"))
    assert "INPUT_" not in scripts, "scripts must not read INPUT_* (act sets them, GitHub does not)"


@pytest.mark.parametrize("path", [ACTION, *WORKFLOWS], ids=lambda p: str(p.relative_to(ROOT)))
def test_third_party_actions_are_pinned_by_full_sha_with_version_comment(path: Path) -> None:
    for line in path.read_text(encoding="utf-8").splitlines():
        if not re.match(r"^\s*(-\s*)?uses:", line):
            continue
        target = line.split("uses:", 1)[1].split("#")[0].strip()
        if target.startswith("./") or target.startswith(f"{FIRST_PARTY}/.github/workflows/"):
            continue  # local, or lanegate's own reusable workflow (examples document the SHA form)
        if target.startswith(f"{FIRST_PARTY}@"):
            continue  # first party, same release tag as the caller's (see .github/zizmor.yml)
        assert PINNED.match(line), (
            f"{path.name}: not pinned by SHA with a version comment: {line.strip()}"
        )


def test_lane_b_contract() -> None:
    doc = _load(LANE_B)
    assert doc["permissions"] == {}
    call = doc[True]["workflow_call"] if True in doc else doc["on"]["workflow_call"]
    for section in ("inputs", "secrets", "outputs"):
        assert call[section], section
        for name, spec in call[section].items():
            assert spec.get("description"), f"workflow_call {section}.{name} has no description"
    assert "allow-rerun" in call["inputs"] and call["inputs"]["allow-rerun"]["default"] is False
    jobs = doc["jobs"]
    assert set(jobs) == {"plan", "property", "fixture", "flake", "score"}
    for name, job in jobs.items():
        perms = job["permissions"]
        assert perms.get("contents") == "read", name
        writes = {k for k, v in perms.items() if v == "write"}
        assert writes == ({"checks", "pull-requests"} if name == "score" else set()), name
        assert "continue-on-error" not in job and all(
            "continue-on-error" not in s for s in job["steps"]
        ), name
        for step in job["steps"]:
            if str(step.get("uses", "")).startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False
            assert "retry" not in str(step.get("uses", "")).lower()
    attempt = "attempt-${{ github.run_attempt }}"
    for lane in ("plan", "property", "fixture", "flake"):
        upload = [s for s in jobs[lane]["steps"] if "upload-artifact" in str(s.get("uses", ""))]
        assert len(upload) == 1
        name = upload[0]["with"]["name"]
        if lane in ("property", "flake"):  # one artifact per shard, never two under one name
            shard = f"shard-${{{{ matrix.shard }}}}-of-${{{{ needs.plan.outputs.{lane}-shards }}}}"
            assert name == f"lanegate-{lane}-{shard}-{attempt}"
            assert jobs[lane]["needs"] == ["plan"]
            assert jobs[lane]["strategy"]["fail-fast"] is False
            assert jobs[lane]["strategy"]["matrix"]["shard"] == (
                f"${{{{ fromJSON(needs.plan.outputs.{lane}-matrix) }}}}"
            )
            lane_step = next(s for s in jobs[lane]["steps"] if s.get("id") == "lane")
            assert lane_step["with"]["plan"] == "${{ runner.temp }}/lanegate-plan/plan.json"
        else:
            assert name == f"lanegate-{lane}-{attempt}"
        assert "cancelled()" in upload[0]["if"]
        runs_on = jobs[lane]["runs-on"]
        label = "score" if lane == "plan" else lane
        assert runs_on == (
            f"${{{{ startsWith(inputs.{label}-runs-on, '[') && fromJSON(inputs.{label}-runs-on)"
            f" || inputs.{label}-runs-on }}}}"
        )
    for name in ("property-shards", "flake-shards"):
        assert call["inputs"][name]["default"] == 1
    for name in ("property", "fixture", "flake", "score"):
        assert call["inputs"][f"{name}-runs-on"]["default"] == "ubuntu-latest"
    score = jobs["score"]
    assert score["needs"] == ["plan", "property", "fixture", "flake"]
    assert score["if"] == "${{ always() }}"
    scorer = next(s for s in score["steps"] if s.get("id") == "score")
    assert scorer["with"]["plan"] == "${{ runner.temp }}/lanegate-ledgers/plan.json"
    download = [s for s in score["steps"] if "download-artifact" in str(s.get("uses", ""))]
    assert download[0]["with"]["pattern"] == "lanegate-*-attempt-${{ github.run_attempt }}"
    gate = score["steps"][-1]
    assert "needs.property.result" in str(gate["env"]) and "steps.score.outputs.verdict" in str(
        gate["env"]
    )


def test_ci_matrix_and_all_green() -> None:
    doc = _load(CI)
    assert doc["permissions"] == {}
    assert doc["jobs"]["test"]["strategy"]["matrix"]["python-version"] == ["3.11", "3.12", "3.13"]
    assert "bash .ci/run" in doc["jobs"]["test"]["steps"][-1]["run"]
    assert doc["jobs"]["all-green"]["needs"] == ["test"]
    for job in doc["jobs"].values():
        assert set(job["permissions"].values()) <= {"read"}


@pytest.mark.parametrize(
    ("property_result", "fixture_result", "flake_result", "verdict", "lint", "passes"),
    [
        ("success", "success", "success", "pass", "/t/lint.json", True),
        ("cancelled", "success", "success", "pass", "/t/lint.json", False),  # act cannot cancel
        ("success", "skipped", "success", "pass", "/t/lint.json", False),
        ("success", "success", "failure", "pass", "/t/lint.json", False),
        ("success", "success", "success", "fail", "/t/lint.json", False),
        ("success", "success", "success", "", "/t/lint.json", False),  # the score step never ran
        ("success", "success", "success", "pass", "", False),  # lint crashed: no report
    ],
)
def test_gate_step_passes_only_when_every_lane_succeeded_and_the_verdict_is_pass(
    property_result: str,
    fixture_result: str,
    flake_result: str,
    verdict: str,
    lint: str,
    passes: bool,
) -> None:
    gate = _load(LANE_B)["jobs"]["score"]["steps"][-1]
    env = {
        "PATH": "/usr/bin:/bin",
        "PLAN_RESULT": "success",
        "PROPERTY_RESULT": property_result,
        "FIXTURE_RESULT": fixture_result,
        "FLAKE_RESULT": flake_result,
        "VERDICT": verdict,
        "LINT_REPORT": lint,
    }
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", gate["run"]],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (done.returncode == 0) is passes, done.stdout
    if not passes:
        assert "::error title=lanegate/" in done.stdout


def test_lanegate_lint_finds_nothing_in_our_own_workflows_and_action(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from lanegate.cli.main import main

    targets = [LANE_B, CI, ACTION, *EXAMPLES]
    code = main(["lint", "--mode", "lane-b", *map(str, targets)])
    out = capsys.readouterr().out
    assert code == 0, out
    # ci.yml runs `bash .ci/run`: the repository script is linted with the workflows
    assert f"{len(targets) + 1} files scanned, clean" in out


def test_vendored_example_is_lane_b_with_literals() -> None:
    from tests.github.vendored import VENDORED, render

    assert VENDORED.read_text(encoding="utf-8") == render(), (
        "examples/vendored-lane-b.yml is stale: python -m tests.github.vendored --write"
    )
    assert "${{ inputs." not in VENDORED.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("property_shards", "flake_shards", "matrix"),
    [
        ("1", "1", ("[1]", "[1]")),
        ("3", "2", ("[1,2,3]", "[1,2]")),
        ("32", "07", ("[" + ",".join(map(str, range(1, 33))) + "]", "[1,2,3,4,5,6,7]")),
        ("0", "1", None),
        ("33", "1", None),
        ("1", "2.5", None),
        ("1", "-1", None),
        ("", "1", None),
        ("1; echo", "1", None),
    ],
)
def test_plan_job_checks_shard_inputs_and_fails_closed(
    property_shards: str, flake_shards: str, matrix: tuple[str, str] | None, tmp_path: Path
) -> None:
    step = _load(LANE_B)["jobs"]["plan"]["steps"][0]
    assert step["id"] == "shards"
    output = tmp_path / "output"
    output.touch()
    env = {
        "PATH": "/usr/bin:/bin",
        "PROPERTY_SHARDS": property_shards,
        "FLAKE_SHARDS": flake_shards,
        "GITHUB_OUTPUT": str(output),
    }
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", step["run"]],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    if matrix is None:
        assert done.returncode != 0
        assert "::error title=lanegate/input::" in done.stdout
        return
    assert done.returncode == 0, done.stdout + done.stderr
    lines = dict(line.split("=", 1) for line in output.read_text().splitlines())
    assert (lines["property-matrix"], lines["flake-matrix"]) == matrix
    assert lines["property-shards"] == str(int(property_shards))
