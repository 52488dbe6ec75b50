"""Drives the progress display with a scripted sequence of ProgressEvents (run under a pty by tests)."""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime

from lanegate.lanes.context import ProgressEvent
from lanegate.ledgers.models import SCHEMA_VERSION, LaneSummary, ReportReason, ScoreReport
from lanegate.reporting.terminal import make_display, render_table

SCRIPT: tuple[tuple[str, object], ...] = (
    ("start", "property"),
    ("event", ProgressEvent("property", "tests/test_codec.py::test_round_trip", "mutant", 3, 12)),
    ("finish", ("property", "fail", "2 of 4 mutants survived")),
    ("start", "fixture"),
    ("event", ProgressEvent("fixture", "words", "case", 1, 1)),
    ("finish", ("fixture", "pass", "1 case matched")),
    ("start", "flake"),
    ("event", ProgressEvent("flake", "hash seed 17, order reverse, TZ XYZ-5", "replay", 2, 6)),
    ("finish", ("flake", "fail", "tests/test_x.py::test_y disagrees in replay 2")),
    ("start", "lint"),
    ("finish", ("lint", "pass", "0 findings")),
    ("start", "score"),
    ("finish", ("score", "fail", "2 fails")),
)

REPORT = ScoreReport(
    schema_version=SCHEMA_VERSION,
    utc=datetime(2026, 1, 1, tzinfo=UTC),
    verdict="fail",
    lane_name="demo",
    lanegate_version="0.0.0",
    run_attempt=1,
    base_commit=None,
    head_commit=None,
    fails=(
        ReportReason(
            lane="property",
            rule_id="property-mutant-budget",
            severity="error",
            message="2 of 4 mutants survived",
            path="src/lib.py",
            line=12,
            fix="add properties that kill the surviving mutants",
        ),
        ReportReason(
            lane="flake",
            rule_id="flake-nondeterministic",
            severity="error",
            message="tests/test_x.py::test_y failed in replay 2 of 6",
            path="tests/test_x.py",
            line=None,
            fix="remove the source of non-determinism",
        ),
    ),
    warns=(),
    lanes=(
        LaneSummary(lane="property", verdict="fail", fails=1, warns=0, counts={}),
        LaneSummary(lane="fixture", verdict="pass", fails=0, warns=0, counts={}),
        LaneSummary(lane="flake", verdict="fail", fails=1, warns=0, counts={}),
        LaneSummary(lane="lint", verdict="pass", fails=0, warns=0, counts={}),
    ),
    ledgers=(),
)


def main() -> int:
    quiet = "--quiet" in sys.argv
    display = make_display(sys.stderr, quiet=quiet)
    for kind, value in SCRIPT:
        if kind == "start":
            display.step_started(str(value))
        elif kind == "event":
            assert isinstance(value, ProgressEvent)
            display.progress(value)
            time.sleep(0.35)  # long enough for the ticker to redraw with the event shown
        else:
            step, state, summary = value  # type: ignore[misc]
            display.step_finished(step, state, summary)
    display.close()
    sys.stdout.write(render_table(REPORT, ".lanegate/score-report.json"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
