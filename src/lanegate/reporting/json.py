"""score-report.json: the ScoreReport model serialized with sorted keys (the merge gate reads this)."""

from __future__ import annotations

from pathlib import Path

from lanegate.ledgers.load import dump_bytes, write_document
from lanegate.ledgers.models import ScoreReport
from lanegate.scoring.evidence import ScoreInputs

SCHEMA_NAME = "score-report"


class JsonReporter:
    """The report exactly as the schema `score-report` describes it."""

    name = "json"
    file_name = "score-report.json"

    def render(self, report: ScoreReport, inputs: ScoreInputs | None = None) -> str:
        """Stable JSON text of the report."""
        return dump_bytes(report).decode("utf-8")


def write_report(path: Path, report: ScoreReport) -> str:
    """Validate and atomically write score-report.json; return its digest."""
    return write_document(path, report, SCHEMA_NAME)
