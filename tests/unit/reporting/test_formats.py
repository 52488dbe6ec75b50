"""Every format renders a sample report; the Markdown summary shows what a reviewer needs and stays
under the step-summary cap."""

from __future__ import annotations

import json

import pytest

from lanegate.ledgers.load import load_document
from lanegate.ledgers.models import MutantStatus, Outcome, ScoreReport
from lanegate.reporting import FORMATS
from lanegate.reporting.markdown import MARKER, MarkdownReporter, cell, code
from lanegate.scoring import score
from tests.unit.scoring import samples
from tests.unit.scoring.samples import replace as r
from tests.unit.scoring.scenario import Scenario


def _failing() -> Scenario:
    prop, fl = samples.property_ledger(), samples.flake_ledger()
    flaky = samples.flake_test(
        "tests/test_calc.py::test_order", (Outcome.PASSED, Outcome.FAILED, Outcome.PASSED)
    )
    weak = (
        *(samples.mutant(i) for i in range(2)),
        *(samples.mutant(i, MutantStatus.SURVIVED) for i in range(2, 5)),
    )
    return Scenario().but(
        property=r(prop, mutants=weak, killed_mutants=2),
        flake=r(fl, tests=(flaky, fl.tests[1]), deterministic=False),
        diff=None,
    )


@pytest.mark.parametrize("name", sorted(FORMATS))
@pytest.mark.parametrize("scenario", [Scenario(), _failing()], ids=["pass", "fail"])
def test_every_format_renders_the_report(name: str, scenario: Scenario) -> None:
    inputs = scenario.inputs()
    report = score(inputs)
    text = FORMATS[name]().render(report, inputs)
    assert text.strip()
    assert report.verdict.upper() in text.upper()
    for reason in report.fails:
        assert reason.rule_id in text
    also_without_evidence = FORMATS[name]().render(report)
    assert report.verdict.upper() in also_without_evidence.upper()


def test_json_format_is_the_schema_valid_report() -> None:
    inputs = _failing().inputs()
    report = score(inputs)
    text = FORMATS["json"]().render(report, inputs)
    loaded = load_document(ScoreReport, "score-report", text.encode(), "score-report.json")
    assert loaded.value == report
    assert json.loads(text)["verdict"] == "fail"


def test_markdown_shows_replay_matrix_and_surviving_mutants() -> None:
    inputs = _failing().inputs()
    text = MarkdownReporter().render(score(inputs), inputs)
    assert text.startswith(MARKER)
    assert "lanegate: FAIL" in text
    assert "**tests/test_calc.py::test_order**" in text
    assert "| 1 | 0 | **failed** | 1001 | reversed | 1 | XYZ-5 |" in text
    assert "# src/calc.py:12 compare-flip (survived)" in text
    assert "- if a < b:\n+ if a >= b:" in text
    assert "fix: add properties that kill" in text


def test_markdown_is_cut_with_a_visible_note_under_the_cap() -> None:
    from lanegate.ledgers.models import LintFindingRecord

    findings = tuple(
        LintFindingRecord(
            rule_id="continue-on-error",
            severity="error",
            message="x" * 400,
            path=f".github/workflows/w{i}.yml",
            line=i + 1,
            column=1,
            fix="remove it",
            exempted=False,
        )
        for i in range(3000)
    )
    inputs = Scenario().but(lint=r(samples.lint_report(), findings=findings)).inputs()
    report = score(inputs)
    assert len(report.fails) == 3000
    limit = 64 * 1024
    text = MarkdownReporter(limit=limit).render(report, inputs)
    assert len(text.encode()) <= limit
    assert "more items of fails cut" in text
    assert "step-summary cap" in text
    full = MarkdownReporter().render(report, inputs)
    assert len(full.encode()) <= 1024 * 1024


def test_cells_and_code_survive_hostile_text() -> None:
    assert cell("a|b\nc<script>") == "a\\|b c&lt;script&gt;"
    assert code("x ` y") == "``x ` y``"
    assert code("`edge`") == "`` `edge` ``"


def test_markdown_names_the_property_baseline_mode() -> None:
    from dataclasses import replace as dc_replace

    from lanegate.ledgers.models import BaselineRecord
    from lanegate.reporting.markdown import baseline_line

    ledger = samples.property_ledger()
    assert baseline_line(ledger) == "Property baseline: full traced run (no coverage map)."
    mapped = dc_replace(
        ledger,
        baseline=BaselineRecord(
            mode="coverage-map",
            reason="3 of 5000 base tests reach 1 changed function(s) | x",
            map_key="sha256:" + "a" * 64,
            map_tests=5000,
            selected_tests=4,
            changed_functions=("src/calc.py::add",),
        ),
    )
    line = baseline_line(mapped)
    assert line.startswith("Property baseline: coverage map `sha256:aaaaaaaaaaaa`: 3 of 5000")
    assert "\\| x" in line and line.endswith("(4 tests run).")
    stale = dc_replace(ledger, baseline=BaselineRecord(reason="coverage map is stale: lock differ"))
    assert baseline_line(stale) == (
        "Property baseline: full traced run (coverage map is stale: lock differ)."
    )
