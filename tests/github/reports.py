"""Score reports written through the real models and writer, for publish tests."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from lanegate.ledgers.load import write_document
from lanegate.ledgers.models import AuthorKind, LaneSummary, ReportReason, ScoreReport

HEAD = "6dcb09b5b57875f334f61aebed695e2e4193db5e"
BASE = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"


def make_report(verdict: str, fails: int = 0, warns: int = 0) -> ScoreReport:
    def reason(i: int, severity: str) -> ReportReason:
        return ReportReason(
            lane="flake",
            rule_id="flake-disagreement",
            severity=severity,
            message=f"tests/test_w.py::test_{i} failed 1 of 3 replays",
            path="tests/test_w.py" if i % 4 else None,
            line=i + 1 if i % 4 else None,
            fix="make the test deterministic",
        )

    return ScoreReport(
        schema_version=1,
        utc=datetime(2026, 11, 29, 12, 0, tzinfo=UTC),
        verdict=verdict,
        lane_name="agent-score",
        lanegate_version="0.1.0",
        authorship=AuthorKind.AGENT,
        run_attempt=1,
        base_commit=BASE,
        head_commit=HEAD,
        fails=tuple(reason(i, "error") for i in range(fails)),
        warns=tuple(reason(i, "warning") for i in range(warns)),
        lanes=(LaneSummary(lane="flake", verdict=verdict, fails=fails, warns=warns, counts={}),),
        ledgers=(),
    )


def write_report(folder: Path, verdict: str, fails: int = 0, warns: int = 0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "score-report.json"
    write_document(path, make_report(verdict, fails, warns), "score-report")
    return path
