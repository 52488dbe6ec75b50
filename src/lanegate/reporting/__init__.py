"""Outputs of the scorer: every format renders the same ScoreReport (FORMATS maps name -> reporter)."""

from lanegate.reporting.base import Reporter
from lanegate.reporting.json import JsonReporter
from lanegate.reporting.markdown import MarkdownReporter
from lanegate.reporting.text import TextReporter

FORMATS: dict[str, type[Reporter]] = {
    "json": JsonReporter,
    "markdown": MarkdownReporter,
    "text": TextReporter,
}

__all__ = ["FORMATS", "JsonReporter", "MarkdownReporter", "Reporter", "TextReporter"]
