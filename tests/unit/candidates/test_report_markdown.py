"""The Markdown report renders every untrusted string literally: a ref name (a valid branch name
can hold `|`, backticks, `<!--`, a bidi override) cannot add a table cell, open a code span or an
HTML comment, or reorder what a reviewer reads; control and format characters are shown visibly."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

from lanegate.candidates.report import BatchFacts, combine, md_text, render_markdown
from lanegate.ledgers.models import CandidateEntry, CandidateEvidence

HOSTILE = [
    "x` | 1 | `aaaaaaaaaaaa` | pass | - |",  # a forged row of cells, a code span closed early
    "evil|pass",
    "<!-- hide the rest",
    "ok\u202elaf",  # right-to-left override: "fail" read as "pass"-like reordering
    "zero\u200bwidth",
    "line\nbreak",
    "[link](https://example.invalid)",
    "*bold* _em_ # h",
]


def _entry(ref: str, head: str, verdict: str, errors: tuple[str, ...] = ()) -> CandidateEntry:
    return CandidateEntry(
        ref=ref,
        head_commit=head * 40,
        verdict=verdict,
        failed_rules=("rule|`x`",) if verdict == "fail" else (),
        errors=errors,
        ledgers=head,
        score_report_digest=None,
        group="sha256:" + "0" * 64,
        changed_lines=1,
        rank=None,
        evidence=CandidateEvidence(flake_power_pct=None, cpu_seconds=None, wall_seconds=None),
    )


def _unescaped_pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


def test_md_text_leaves_no_markdown_syntax_and_marks_invisible_characters() -> None:
    for text in HOSTILE:
        out = md_text(text)
        assert _unescaped_pipes(out) == 0
        assert not re.search(r"(?<!\\)[`<>\[\]*_#]", out), out
        assert not any(c in out for c in "\u202e\u200b\n"), out
    assert md_text("ok\u202elaf") == "ok\\[U+202E\\]laf"
    assert md_text("attempt-1") == "attempt\\-1"
    assert md_text("plain words") == "plain words"


def test_every_row_of_the_report_keeps_its_cells_whatever_the_refs_say() -> None:
    entries = [_entry(ref, "abcdef0123"[i % 10], "fail", (ref,)) for i, ref in enumerate(HOSTILE)]
    entries.append(_entry("honest", "9", "pass"))
    facts = BatchFacts(
        "main|`x`\u202e", "0" * 40, None, "separate-run", 1, 1.0, datetime(2026, 1, 1, tzinfo=UTC)
    )
    report = combine(entries, facts)
    text = render_markdown(report)
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + len(entries)  # the header and one row per candidate, none added
    assert all(_unescaped_pipes(row) == 12 for row in rows), rows
    assert "\u202e" not in text and "\u200b" not in text and "<!--" not in text
    fails = [row for row in rows if "| fail |" in row]
    assert len(fails) == len(HOSTILE)  # every failing row still reads fail
    assert "`" not in text.replace("\\`", "").replace("`lanegate run`", "")


def test_a_shared_map_batch_says_it_is_not_equal_to_a_separate_run() -> None:
    entries = [_entry("honest", "9", "pass")]
    facts = BatchFacts("main", "0" * 40, None, "separate-run", 1, 1.0, datetime.now(UTC))
    assert "not equal" not in render_markdown(combine(entries, facts))
    shared = replace(
        facts, selection="shared-coverage-map", coverage_map_digest="sha256:" + "1" * 64
    )
    report = combine(entries, shared)
    assert report.selection == "shared-coverage-map"
    assert "not equal to a separate `lanegate run`" in render_markdown(report)
