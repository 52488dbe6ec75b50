"""A lane that cannot run, or crashes, costs only its own ledger: the run finishes and fails closed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from lanegate.authorship import Authorship
from lanegate.errors import RunnerError
from lanegate.lanes.context import LaneContext, LaneOutcome
from lanegate.ledgers.models import AuthorKind
from lanegate.policy import load_policy
from lanegate.reporting.terminal import LineDisplay
from lanegate.run import orchestrate
from tests.gitrepo import Repo


def _broken(lane: str) -> Callable[[LaneContext], LaneOutcome]:
    def run_lane(ctx: LaneContext) -> LaneOutcome:
        if lane == "property":
            raise RuntimeError("a bug")
        raise RunnerError(f"{lane}: pytest is not installed")

    return run_lane


def test_broken_lanes_fail_closed_and_the_run_still_finishes(
    make_repo: Callable[[str], Repo], monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo("r")
    repo.write("a.py", "x = 1\n")
    base = repo.commit("base")
    repo.branch("work")
    repo.write("a.py", "x = 2\n")
    repo.commit("change")
    monkeypatch.setattr(orchestrate, "lane_runner", _broken)
    lines: list[str] = []

    class Sink:
        def write(self, text: str) -> int:
            lines.append(text)
            return len(text)

        def flush(self) -> None:
            return None

    request = orchestrate.RunRequest(
        repo=repo.path,
        policy=load_policy(repo.path),
        base=base,
        out_dir=repo.path / ".lanegate",
        now=datetime(2026, 1, 1, tzinfo=UTC),
        authorship=Authorship(AuthorKind.AGENT, "test"),
    )
    result = orchestrate.run_all(request, LineDisplay(Sink()))  # type: ignore[arg-type]
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
