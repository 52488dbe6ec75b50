"""A collection the wall clock cut says so, and after how long (issue 47: a cut names its phase)."""

from __future__ import annotations

import pytest

from lanegate.errors import RunnerError
from lanegate.lanes.flake.collect import COLLECT_REPLAY, collection_of
from lanegate.lanes.flake.execute import ReplayRun


def _run(timed_out: bool) -> ReplayRun:
    return ReplayRun(COLLECT_REPLAY, None if timed_out else 4, 612.4, timed_out, (), 0, False, "")


def test_a_cut_collection_names_the_phase_and_the_seconds() -> None:
    with pytest.raises(RunnerError) as exc:
        collection_of(_run(timed_out=True))
    text = str(exc.value)
    assert "pytest's collection of the diff's test files (replay 0)" in text
    assert "cut by the wall clock after 612 s" in text
    assert "lane.max_wall_seconds" in exc.value.hint
    with pytest.raises(RunnerError, match="pytest exited 4 before collecting"):
        collection_of(_run(timed_out=False))
