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


def test_the_rules_table_shows_both_columns_of_every_row() -> None:
    text = DOC.read_text(encoding="utf-8")
    cells = [
        [c.strip() for c in line.strip("|").split("|")]
        for line in text.splitlines()
        if line.startswith("| [`")
    ]
    shown = {c[0].split("`")[1]: (c[2], c[3]) for c in cells}
    assert list(shown) == [row.rule_id for row in TABLE]
    for row in TABLE:
        lane_a = row.lane_a_column.value + (" (own reading)" if row.lane_a_check else "")
        assert shown[row.rule_id] == (row.lane_b_column.value, lane_a), row.rule_id
