"""docs/score-rules.md has exactly one section per decision-table row."""

from __future__ import annotations

import re
from pathlib import Path

from lanegate.scoring import TABLE

DOC = Path(__file__).resolve().parents[3] / "docs" / "score-rules.md"


def test_one_section_per_rule_id() -> None:
    headings = re.findall(r"^### (\S+)$", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    assert headings == [row.rule_id for row in TABLE]


def test_rule_ids_are_kebab_case_and_fixes_are_one_line() -> None:
    for row in TABLE:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", row.rule_id), row.rule_id
        assert row.fix and "\n" not in row.fix and "\n" not in row.observation
