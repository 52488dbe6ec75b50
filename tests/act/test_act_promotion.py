"""examples/promotion.yml run end to end by act, offline: Lane A after lane-b for agents, at once for
humans.

The caller is the example as shipped, with no `install:` (the tests' needs are already importable, as
in the other scenarios); examples/lane-a.yml (the caller's own CI made reusable) runs the target's
tests with the interpreter act gives every step instead of installing them with pip.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import pytest
import yaml

from tests.act import target
from tests.act.harness import (
    ROOT,
    ActResult,
    concurrently,
    pull_request_event,
    run_act,
    ship_lanegate,
)
from tests.github.server import WRITE_TOKEN, RecordedGitHub

HUMAN = "octocat"


def _promotion() -> str:
    text = (ROOT / "examples" / "promotion.yml").read_text(encoding="utf-8")
    return "".join(line for line in text.splitlines(keepends=True) if "install:" not in line)


def _lane_a() -> str:
    text = (ROOT / "examples" / "lane-a.yml").read_text(encoding="utf-8")
    installed = text.replace('run: python -m pip install -e ".[test]"', "run: echo installed")
    tests = installed.replace(
        "run: python -m pytest -q", """run: '"$LANEGATE_PYTHON" -m pytest -q -p no:cacheprovider'"""
    )
    assert tests.count("LANEGATE_PYTHON") == 1 and "echo installed" in tests
    return tests


@dataclass
class Scenario:
    human: bool = False
    env: dict[str, str] = field(default_factory=dict)


SCENARIOS = {
    "agent-passes": Scenario(),
    # lane-b's plan job dies at its checkout: every lane is skipped, the scorer fails closed
    "agent-fails": Scenario(env={"LANEGATE_ACT_BREAK_JOB": "plan"}),
    "human": Scenario(human=True),
}


def _run(scenario: Scenario, work: Path, lanegate: Path) -> tuple[ActResult, RecordedGitHub]:
    policy = target.POLICY.replace("[authorship]\n", f'[authorship]\nhuman_logins = ["{HUMAN}"]\n')
    repo, base = target.make_base(
        work / "repo",
        workflow=_promotion(),
        extra={"lanegate.toml": policy, ".github/workflows/lane-a.yml": _lane_a()},
    )
    head = target.add_head(repo, target.HONEST_CHANGE, "scenario")
    event = pull_request_event(repo.path, base, head, labels=() if scenario.human else ("agent",))
    if scenario.human:
        event["pull_request"]["user"] = {"login": HUMAN, "type": "User"}
    api = RecordedGitHub().start()
    result = run_act(
        repo.path,
        ".github/workflows/lanegate.yml",
        event,
        work / "act",
        lanegate=lanegate,
        env={"GITHUB_API_URL": api.base_url, **scenario.env},
        secrets={"GITHUB_TOKEN": WRITE_TOKEN},
        timeout=420,
    )
    return result, api


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ActResult]]:
    root = tmp_path_factory.mktemp("act-promotion")
    lanegate = ship_lanegate(root / "lanegate")
    done = concurrently(
        {
            name: partial(_run, scenario, root / name, lanegate)
            for name, scenario in SCENARIOS.items()
        }
    )
    yield {name: result for name, (result, _) in done.items()}
    for _, api in done.values():
        api.stop()


def _ends(result: ActResult, job: str) -> list[tuple[int, str]]:
    """(log line number, how it ended) of every job whose log prefix names `job`."""
    found = []
    for number, line in enumerate(result.log.splitlines()):
        hit = re.search(r"\[([^\]]*)\] 🏁  Job (\w+)", line)
        if hit and job in hit.group(1):
            found.append((number, hit.group(2)))
    return found


def _first_line(result: ActResult, job: str) -> int | None:
    for number, line in enumerate(result.log.splitlines()):
        hit = re.match(r"\[([^\]]*)\]", line)
        if hit and job in hit.group(1):
            return number
    return None


def test_an_agent_pull_request_runs_lane_a_only_after_lane_b_passed(
    outcomes: dict[str, ActResult],
) -> None:
    result = outcomes["agent-passes"]
    assert result.returncode == 0, result.log[-4000:]
    assert result.score_report() is not None and result.score_report()["verdict"] == "pass"  # type: ignore[index]
    score_end = _ends(result, "lane B/score")
    promoted = _ends(result, "lane-a (agent, after lane-b)")
    assert score_end == [(score_end[0][0], "succeeded")]
    assert promoted and all(end == "succeeded" for _, end in promoted)
    started = _first_line(result, "lane-a (agent, after lane-b)")
    assert started is not None and started > score_end[0][0]  # `needs`: after lane-b's verdict
    assert _first_line(result, "lane-a (human)") is None
    assert [end for _, end in _ends(result, "lanegate/lane-a")] == ["succeeded"]


def test_an_agent_pull_request_that_fails_lane_b_never_reaches_lane_a(
    outcomes: dict[str, ActResult],
) -> None:
    result = outcomes["agent-fails"]
    assert result.returncode != 0
    assert result.job_failed("score")
    assert _first_line(result, "lane-a (agent, after lane-b)") is None
    assert _first_line(result, "lane-a (human)") is None
    # act stops the caller's graph once a job of a called workflow failed, so the `lane-a` job
    # (`if: always()`) does not run here; on GitHub it does, and fails: its step, run below


@pytest.mark.parametrize(
    ("kind", "human", "agent", "passes"),
    [
        ("agent", "skipped", "success", True),
        ("agent", "skipped", "skipped", False),  # lane-b did not pass
        ("agent", "skipped", "failure", False),
        ("human", "success", "skipped", True),
        ("human", "failure", "skipped", False),
        ("human", "skipped", "success", False),  # a human's Lane A must be the one that ran
        ("", "skipped", "success", True),  # authorship undecided: the agent's path
        ("", "success", "skipped", False),
    ],
)
def test_the_lane_a_check_passes_only_on_the_path_the_pull_request_takes(
    kind: str, human: str, agent: str, passes: bool
) -> None:
    doc = yaml.safe_load((ROOT / "examples" / "promotion.yml").read_text(encoding="utf-8"))
    job = doc["jobs"]["lane-a"]
    assert job["if"] == "${{ always() }}"
    done = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", job["steps"][-1]["run"]],
        env={"PATH": "/usr/bin:/bin", "KIND": kind, "HUMAN": human, "AGENT": agent},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert (done.returncode == 0) is passes, done.stdout
    if not passes:
        assert done.stdout.startswith("::error title=lane-a::Lane A is ")


def test_a_human_pull_request_goes_straight_to_lane_a(outcomes: dict[str, ActResult]) -> None:
    result = outcomes["human"]
    assert "lanegate authorship: human: author 'octocat' is a listed human" in result.log
    jobs = yaml.safe_load(_promotion())["jobs"]
    assert jobs["lane-a-human"]["needs"] == ["authorship"]  # it never waits for lane-b
    now = _ends(result, "lane-a (human)")
    assert now and all(end == "succeeded" for _, end in now)
    assert _first_line(result, "lane-a (agent, after lane-b)") is None
    assert [end for _, end in _ends(result, "lanegate/lane-a")] == ["succeeded"]
    # lane-b still judges it (with the rules for humans): its check is the one required everywhere
    assert result.score_report() is not None and result.score_report()["verdict"] == "pass"  # type: ignore[index]
    assert result.returncode == 0, result.log[-4000:]
