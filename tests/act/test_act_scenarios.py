"""lanegate's reusable workflow run end to end by act, offline, in host mode, on tiny target repos.

Every scenario is a real `act pull_request` run of examples/pull-request.yml (the caller) calling
`lanegate/lanegate/.github/workflows/lane-b.yml@v1` (this checkout) with the real lanes, the real scorer
and `lanegate publish` posting to a recorded GitHub API on 127.0.0.1. The scenarios run concurrently
(one act process each) so that the whole suite takes about as long as its slowest run.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.act import target
from tests.act.harness import (
    ROOT,
    ActResult,
    concurrently,
    pull_request_event,
    run_act,
    ship_lanegate,
)
from tests.github.server import READ_ONLY_TOKEN, REPO, WRITE_TOKEN, RecordedGitHub


@dataclass
class Scenario:
    head: dict[str, str | bytes]
    workflow: str | None = None
    attempt: int = 1
    env: dict[str, str] = field(default_factory=dict)
    token: str = WRITE_TOKEN
    seed_artifacts: bool = False
    # the caller workflow act runs, written over the committed one after the head commit: twins that
    # differ only in their lane-b inputs judge the very same commits (so the same mutant ids)
    run_workflow: str | None = None
    timeout: float = 240  # seconds of the act run


SHARDED = target.caller_workflow(property_shards="3", flake_shards="2")
INSTALLED = target.caller_workflow(install='"-e . hypothesis six"')
# the machine's own pip configuration (its index), which act's per-run HOME would hide
PIP_CONFIG = Path.home() / ".config" / "pip" / "pip.conf"
SHARD_LOST = target.caller_workflow(
    property_shards="3", flake_shards="2", flake_runs_on="'[\"no-such-runner\"]'"
)

SCENARIOS: dict[str, Scenario] = {
    # the unsharded twin of "sharded" (one shard of each lane)
    "passing": Scenario(head=target.HONEST_CHANGE),
    # 3 property shards and 2 flake shards, end to end: the same verdict as "passing"
    "sharded": Scenario(head=target.HONEST_CHANGE, run_workflow=SHARDED),
    # property shard 2/3 dies before its upload; the flake shards' runner label has no runner
    "shard-lost": Scenario(
        head=target.HONEST_CHANGE,
        run_workflow=SHARD_LOST,
        env={"LANEGATE_ACT_FAIL_UPLOAD": "lanegate-property-shard-2-of-3-attempt-1"},
    ),
    # the caller's `install:` fills a tests venv inside the sandbox; the lanes run the tests with it
    "installed": Scenario(
        head=target.INSTALLED_CHANGE,
        workflow=INSTALLED,
        env={"PIP_CONFIG_FILE": str(PIP_CONFIG)} if PIP_CONFIG.is_file() else {},
        timeout=900,  # three lane jobs each run pip (resolve, build, install) on shared cores
    ),
    "flaky": Scenario(head=target.FLAKY),
    # one run, two planted problems (each its own fail), and a fork PR's read-only token
    "fixture-rewrite+retry-caller": Scenario(
        head=target.FIXTURE_REWRITE,
        workflow=target.caller_workflow(target.RETRY_JOB),
        token=READ_ONLY_TOKEN,
    ),
    "re-run": Scenario(head=target.HONEST, attempt=2, seed_artifacts=True),
    "lane-died": Scenario(head=target.DOCS_ONLY, env={"LANEGATE_ACT_BREAK_JOB": "flake"}),
}


@dataclass
class Outcome:
    result: ActResult
    api: RecordedGitHub


def _seed_attempt_one(artifacts: Path) -> None:
    """Valid attempt-1 ledgers left over from an earlier attempt (GitHub keeps them on re-run)."""
    for lane in ("property", "fixture", "flake"):
        folder = artifacts / f"lanegate-{lane}-attempt-1"
        folder.mkdir(parents=True)
        shutil.copy2(ROOT / "examples" / "ledgers" / "pass" / f"{lane}.json", folder)


def _run(name: str, scenario: Scenario, work: Path, lanegate: Path) -> Outcome:
    repo, base = target.make_base(work / "repo", workflow=scenario.workflow)
    head = target.add_head(repo, scenario.head, "scenario")
    if scenario.run_workflow is not None:
        repo.write(".github/workflows/lanegate.yml", scenario.run_workflow)
    event = pull_request_event(repo.path, base, head)
    api = RecordedGitHub().start()
    if scenario.seed_artifacts:
        _seed_attempt_one(work / "act" / "artifacts")
    result = run_act(
        repo.path,
        ".github/workflows/lanegate.yml",
        event,
        work / "act",
        lanegate=lanegate,
        attempt=scenario.attempt,
        env={"GITHUB_API_URL": api.base_url, **scenario.env},
        secrets={"GITHUB_TOKEN": scenario.token},
        timeout=scenario.timeout,
    )
    return Outcome(result, api)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Outcome]]:
    root = tmp_path_factory.mktemp("act")
    lanegate = ship_lanegate(root / "lanegate")
    done = concurrently(
        {
            name: partial(_run, name, scenario, root / name, lanegate)
            for name, scenario in SCENARIOS.items()
        }
    )
    yield done
    for outcome in done.values():
        outcome.api.stop()


def _check_runs(api: RecordedGitHub) -> list[dict[str, object]]:
    return [w.body for w in api.writes() if w.path.startswith(f"{REPO}/check-runs")]


def _explain(outcome: Outcome) -> str:
    return outcome.result.log[-4000:]


def test_passing_pr_passes_every_job_and_posts_success(outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes["passing"]
    result = outcome.result
    assert result.returncode == 0, _explain(outcome)
    for job in ("plan", "property", "fixture", "flake", "score"):
        assert result.job_succeeded(job), job
    assert result.artifact_names() == [
        "lanegate-fixture-attempt-1",
        "lanegate-flake-shard-1-of-1-attempt-1",
        "lanegate-plan-attempt-1",
        "lanegate-property-shard-1-of-1-attempt-1",
        "lanegate-report-attempt-1",  # score-report.json and score-summary.md
    ]
    report = result.score_report()
    assert report is not None and report["verdict"] == "pass" and report["fails"] == []
    assert {lane["lane"] for lane in report["lanes"]} >= {"property", "fixture", "flake"}
    assert result.ledger("flake")["job"] == "flake"  # written by its own job, attempt 1
    runs = _check_runs(outcome.api)
    assert runs and runs[-1]["conclusion"] == "success"
    assert [w.path for w in outcome.api.writes() if "comments" in w.path] == [
        f"{REPO}/issues/comments/1003"
    ]  # the sticky comment, updated in place
    assert "lanegate" in result.summary()


def test_install_input_runs_the_tests_from_their_own_sandbox_filled_venv(
    outcomes: dict[str, Outcome],
) -> None:
    outcome = outcomes["installed"]
    result = outcome.result
    assert result.returncode == 0, _explain(outcome)
    for job in ("property", "fixture", "flake", "score"):
        assert result.job_succeeded(job), job
    report = result.score_report()
    assert report is not None and report["verdict"] == "pass", report
    assert "the tests run sandboxed with" in result.log
    assert "lanegate-tests-venv-flake/bin/python" in result.log
    replays = [
        r["outcome"] for t in result.shard_ledger("flake", 1, 1)["tests"] for r in t["replays"]
    ]
    assert replays and set(replays) == {"passed"}, replays


def test_flaky_new_test_fails_the_flake_lane(outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes["flaky"]
    result = outcome.result
    assert result.returncode != 0
    # the target's test fails only when it runs again in its process: a state leak, not chance
    assert ("flake", "flake-state-leak") in result.fails(), _explain(outcome)
    assert result.job_failed("flake") and result.job_failed("score")
    assert "lanegate-flake-shard-1-of-1-attempt-1" in result.artifact_names()  # failing, uploaded
    assert _check_runs(outcome.api)[-1]["conclusion"] == "failure"


def test_rewritten_fixture_fails_and_a_read_only_token_degrades(
    outcomes: dict[str, Outcome],
) -> None:
    outcome = outcomes["fixture-rewrite+retry-caller"]
    result = outcome.result
    assert result.returncode != 0
    assert ("fixture", "fixture-drift") in result.fails(), _explain(outcome)
    assert result.job_failed("score")
    writes = outcome.api.writes()
    assert len(writes) == 1 and outcome.api.requests[-1].token == READ_ONLY_TOKEN  # one 403
    assert "could not post everything" in result.log


def test_caller_workflow_with_a_retry_action_fails_closed(outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes["fixture-rewrite+retry-caller"]
    result = outcome.result
    assert result.returncode != 0
    lint_fails = {rule for lane, rule in result.fails() if lane == "lint"}
    assert lint_fails, _explain(outcome)
    report = result.score_report()
    assert report is not None
    lint = [f for f in report["fails"] if f["lane"] == "lint"]
    assert any("lanegate.yml" in (f["path"] or "") for f in lint), lint
    assert any("retry" in (f["message"] + f["rule_id"]).lower() for f in lint), lint


def test_re_run_attempt_fails_closed_and_ignores_attempt_one_ledgers(
    outcomes: dict[str, Outcome],
) -> None:
    outcome = outcomes["re-run"]
    result = outcome.result
    assert result.returncode != 0
    assert "lanegate/run-attempt" in result.log
    report = result.score_report()
    assert report is not None and report["verdict"] == "fail", _explain(outcome)
    assert report["run_attempt"] == 2
    # the attempt-1 ledgers were there to take, and were not taken
    assert {("property", "ledger-missing"), ("fixture", "ledger-missing")} <= result.fails()
    assert report["ledgers"] == [] or all(
        "attempt-1" not in str(entry) for entry in report["ledgers"]
    )


def test_lane_that_dies_before_its_ledger_fails_the_gate(outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes["lane-died"]
    result = outcome.result
    assert result.returncode != 0
    assert result.job_failed("flake") and result.job_failed("score")
    assert "lanegate-flake-shard-1-of-1-attempt-1" not in result.artifact_names()
    assert ("flake", "ledger-missing") in result.fails(), _explain(outcome)
    # the gate step failed; act at times loses the output of a step that ends within milliseconds,
    # so its lines are checked where they were captured: they name the flake job's result
    assert "Failure - Main Gate" in result.log
    gate = [line for line in result.log.splitlines() if "lanegate/lane-result" in line]
    assert all("lane job flake finished as 'failure'" in line for line in gate if "flake" in line)


def _mutants(ledger: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """Mutant id -> (status, killer)."""
    return {m["id"]: (m["status"], m["killed_by"]) for m in ledger["mutants"]}


def test_three_property_and_two_flake_shards_give_the_unsharded_verdict(
    outcomes: dict[str, Outcome],
) -> None:
    sharded, unsharded = outcomes["sharded"].result, outcomes["passing"].result
    assert sharded.returncode == 0, _explain(outcomes["sharded"])
    report, twin = sharded.score_report(), unsharded.score_report()
    assert report is not None and twin is not None
    assert (report["verdict"], report["fails"]) == (twin["verdict"], twin["fails"]) == ("pass", [])
    names = sharded.artifact_names()
    assert [n for n in names if "-shard-" in n] == [
        "lanegate-flake-shard-1-of-2-attempt-1",
        "lanegate-flake-shard-2-of-2-attempt-1",
        "lanegate-property-shard-1-of-3-attempt-1",
        "lanegate-property-shard-2-of-3-attempt-1",
        "lanegate-property-shard-3-of-3-attempt-1",
    ]
    # each shard ran its own slice; together, the mutants and tests of the unsharded run
    slices = [_mutants(sharded.shard_ledger("property", k, 3)) for k in (1, 2, 3)]
    # the cap's three operator mutants and decode's reverts (the whole base function and each
    # hunk), dealt among the three shards like any mutant
    assert all(slices) and sum(len(s) for s in slices) == len(
        _mutants(unsharded.ledger("property"))
    )
    assert {k: v for s in slices for k, v in s.items()} == _mutants(unsharded.ledger("property"))
    tests = [[t["node_id"] for t in sharded.shard_ledger("flake", k, 2)["tests"]] for k in (1, 2)]
    assert all(tests) and not set(tests[0]) & set(tests[1])
    whole = sorted(t["node_id"] for t in unsharded.ledger("flake")["tests"])
    assert sorted(tests[0] + tests[1]) == whole
    counts = {lane["lane"]: lane["counts"] for lane in report["lanes"]}
    twin_counts = {lane["lane"]: lane["counts"] for lane in twin["lanes"]}
    assert counts["property"]["killed_mutants"] == twin_counts["property"]["killed_mutants"] == 3
    assert counts["flake"]["tests"] == twin_counts["flake"]["tests"] == 2


def test_a_shard_that_never_reports_fails_the_score_closed(outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes["shard-lost"]
    result = outcome.result
    assert result.returncode != 0
    report = result.score_report()
    assert report is not None and report["verdict"] == "fail", _explain(outcome)
    missing = [f["message"] for f in report["fails"] if f["rule_id"] == "shard-missing"]
    assert any("property shard 2/3 never reported" in m for m in missing), missing
    assert any("flake shard 1/2 never reported" in m for m in missing), missing
    assert any("flake shard 2/2 never reported" in m for m in missing), missing
    assert {("property", "ledger-missing"), ("flake", "ledger-missing")} <= result.fails()
    assert "lanegate-property-shard-1-of-3-attempt-1" in result.artifact_names()
    assert "lanegate-property-shard-2-of-3-attempt-1" not in result.artifact_names()
    assert result.job_failed("score")


def test_whole_act_suite_wall_time_is_reported(outcomes: dict[str, Outcome]) -> None:
    seconds = {name: round(o.result.seconds, 1) for name, o in outcomes.items()}
    print(f"act scenario wall seconds: {seconds}")
    assert all(s > 0 for s in seconds.values())
