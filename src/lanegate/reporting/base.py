"""The Reporter protocol: one score report in, one text out. Reporters never print or decide."""

from __future__ import annotations

from typing import Protocol

from lanegate.ledgers.models import ScoreReport
from lanegate.scoring.evidence import ScoreInputs


class Reporter(Protocol):
    """Renders a score report; `inputs` (the evidence) lets a format show details the report omits."""

    name: str
    file_name: str

    def render(self, report: ScoreReport, inputs: ScoreInputs | None = None) -> str:
        """The whole output as text."""
        ...
