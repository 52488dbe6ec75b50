"""A lane that cannot run, or crashes, costs only its own ledger: the run finishes and fails closed."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from lanegate.authorship import Authorship
from lanegate.errors import RunnerError
from lanegate.lanes.context import LaneContext, LaneOutcome
from lanegate.ledgers.models import AuthorKind
from lanegate.policy import load_policy
from lanegate.reporting.terminal import LineDisplay
from lanegate.run import orchestrate
from tests.gitrepo import Repo


def _changed(make_repo: Callable[[str], Repo]) -> tuple[Repo, str]:
    """A repository on a branch one commit past its base; the base commit."""
    repo = make_repo("r")
    repo.write("a.py", "x = 1\n")
    base = repo.commit("base")
    repo.branch("work")
    repo.write("a.py", "x = 2\n")
    repo.commit("change")
    return repo, base


def _broken(lane: str) -> Callable[[LaneContext], LaneOutcome]:
    def run_lane(ctx: LaneContext) -> LaneOutcome:
        if lane == "property":
            raise RuntimeError("a bug")
        raise RunnerError(f"{lane}: pytest is not installed")

    return run_lane


def test_broken_lanes_fail_closed_and_the_run_still_finishes(
    make_repo: Callable[[str], Repo], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo, base = _changed(make_repo)
    monkeypatch.setattr(orchestrate, "lane_runner", _broken)
    lines: list[str] = []

    class Sink:
        def write(self, text: str) -> int:
            lines.append(text)
            return len(text)

        def flush(self) -> None:
            return None

    result = orchestrate.run_all(_request(repo, base, sandboxed=True), LineDisplay(Sink()))  # type: ignore[arg-type]
    assert result.internal_errors == ("property lane: RuntimeError: a bug",)
    assert result.errors == (
        "fixture lane: fixture: pytest is not installed",
        "flake lane: flake: pytest is not installed",
    )
    assert result.report.verdict == "fail"
    missing = sorted(f.path for f in result.report.fails if f.rule_id == "ledger-missing")
    assert missing == [".lanegate/fixture.json", ".lanegate/flake.json", ".lanegate/property.json"]
    written = sorted(p.name for p in result.files)
    assert written == ["lint.json", "score-report.json", "score-summary.md"]
    assert "lanegate: property: internal-error in" in "".join(lines)


def _request(repo: Repo, base: str, *, sandboxed: bool) -> orchestrate.RunRequest:
    return orchestrate.RunRequest(
        repo=repo.path,
        policy=load_policy(repo.path),
        base=base,
        out_dir=repo.path / ".lanegate",
        now=datetime(2026, 1, 1, tzinfo=UTC),
        authorship=Authorship(AuthorKind.AGENT, "test"),
        sandboxed=sandboxed,
    )


class _Quiet:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        return None


@pytest.mark.parametrize("sandboxed", [True, False])
def test_sandboxed_lanes_run_side_by_side_and_unsandboxed_ones_one_by_one(
    make_repo: Callable[[str], Repo], monkeypatch: pytest.MonkeyPatch, sandboxed: bool
) -> None:
    repo, base = _changed(make_repo)
    # every lane waits at a barrier of all three: only lanes that run at the same time get past it
    barrier = threading.Barrier(3, timeout=10)
    running, most = [0], [0]
    lock = threading.Lock()

    def runner(lane: str) -> Callable[[LaneContext], LaneOutcome]:
        def run_lane(ctx: LaneContext) -> LaneOutcome:
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            try:
                if sandboxed:
                    barrier.wait()
                raise RunnerError(f"{lane}: done")
            finally:
                with lock:
                    running[0] -= 1

        return run_lane

    monkeypatch.setattr(orchestrate, "lane_runner", runner)
    monkeypatch.setattr(orchestrate, "usable_cpus", lambda: 2)
    result = orchestrate.run_all(_request(repo, base, sandboxed=sandboxed), LineDisplay(_Quiet()))  # type: ignore[arg-type]
    # in LANES order whatever order they finished in; no lane broke the barrier
    assert result.errors == tuple(f"{lane} lane: {lane}: done" for lane in orchestrate.LANES)
    assert [s.step for s in result.steps][:3] == list(orchestrate.LANES)
    assert most[0] == (3 if sandboxed else 1)


def test_an_interrupted_run_refuses_new_sandboxed_commands_until_the_next_run(
    make_repo: Callable[[str], Repo], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from lanegate.errors import SandboxError
    from lanegate.sandbox import Sandbox, refuse_commands

    refuse_commands()
    try:
        sandbox = Sandbox(tmp_path, enabled=False)
        with pytest.raises(SandboxError, match="no new process starts"):
            sandbox.command(["true"], env={})
    finally:
        refuse_commands(False)
    assert Sandbox(tmp_path, enabled=False).command(["true"], env={}).argv == ["true"]
