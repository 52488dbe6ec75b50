"""lane-b-candidates.yml run end to end by act, offline: two candidates of one task judged against
one base, the base's coverage map built once and shared through an artifact, each candidate's lanes
in matrix jobs of their own, and the combined report ranking the survivor."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from tests.act import target
from tests.act.harness import ActResult, pull_request_event, run_act, ship_lanegate
from tests.github.server import WRITE_TOKEN, RecordedGitHub
from tests.gitrepo import git

CALLER = """\
name: candidates
on:
  pull_request:
permissions: {{}}
jobs:
  candidates:
    uses: lanegate/lanegate/.github/workflows/lane-b-candidates.yml@v1
    permissions:
      contents: read
    with:
      base-ref: {base}
      refs: '["attempt-honest", "attempt-flaky"]'
      python-version: ""
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ActResult, dict[str, str]]]:
    root = tmp_path_factory.mktemp("act-candidates")
    lanegate = ship_lanegate(root / "lanegate")
    repo, base = target.make_base(root / "repo")
    heads = {}
    for name, files in (("honest", target.HONEST_CHANGE), ("flaky", target.FLAKY)):
        heads[name] = target.add_head(repo, files, f"attempt {name}")
        git(repo.path, "branch", "-f", f"attempt-{name}", heads[name])
    git(repo.path, "checkout", "-q", "attempt-honest")
    # act reads the caller from the work tree; the jobs' checkouts clone commits, without it
    repo.write(".github/workflows/candidates.yml", CALLER.format(base=base))
    event = pull_request_event(repo.path, base, heads["honest"])
    api = RecordedGitHub().start()
    try:
        result = run_act(
            repo.path,
            ".github/workflows/candidates.yml",
            event,
            root / "act",
            lanegate=lanegate,
            env={"GITHUB_API_URL": api.base_url},
            secrets={"GITHUB_TOKEN": WRITE_TOKEN},
            timeout=900,
            # one job at a time: act 0.2.89 can crash (concurrent map writes) when matrix jobs
            # start the same local composite action at once
            concurrent_jobs=1,
        )
        yield result, heads
    finally:
        api.stop()


def test_the_batch_runs_as_a_matrix_sharing_the_base_and_ranks_the_survivor(
    run: tuple[ActResult, dict[str, str]],
) -> None:
    result, heads = run
    names = result.artifact_names()
    assert "lanegate-candidates-base-attempt-1" in names, result.log[-4000:]
    maps = list((result.artifacts / "lanegate-candidates-base-attempt-1").glob("coverage-map-*"))
    assert len(maps) == 1  # built once, downloaded by every candidate's property job
    for index in (0, 1):
        for lane in ("property", "fixture", "flake", "scored"):
            assert f"lanegate-candidate-{index}-{lane}-attempt-1" in names, names
    found = sorted(result.artifacts.glob("lanegate-candidates-report-attempt-1/candidates.json"))
    assert found, result.log[-4000:]
    report = json.loads(found[0].read_text())
    by_ref = {c["ref"]: c for c in report["candidates"]}
    assert by_ref["attempt-honest"]["head_commit"] == heads["honest"]
    assert by_ref["attempt-honest"]["verdict"] == "pass", by_ref["attempt-honest"]
    assert by_ref["attempt-flaky"]["verdict"] == "fail"
    assert "flake-state-leak" in by_ref["attempt-flaky"]["failed_rules"]
    assert report["survivors"] == [heads["honest"]]
    assert result.returncode != 0  # the flaky candidate's score job fails, as lane-b's would
