"""Every output format renders the same result: JSON is a valid LintReport, SARIF validates against the
official SARIF 2.1.0 schema, GitHub annotations carry the rule id as title."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from lanegate.ledgers.load import load_document
from lanegate.ledgers.models import LintReport
from lanegate.workflow_lint import LintResult
from lanegate.workflow_lint.output import FORMATS
from lanegate.workflow_lint.output.sarif import document
from lanegate.workflow_lint.registry import RULES
from tests.unit.workflow_lint.helpers import lint_tree

SCHEMA = json.loads(
    (Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8")
)
FILES = {
    ".github/workflows/ci.yml": "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: pytest || true\n        continue-on-error: true\n",
    "pytest.ini": "[pytest]\naddopts = --reruns 2\n",
    "requirements.txt": "flaky\n",
    ".github/workflows/broken.yml": "on: [push\n",
}


@pytest.fixture
def result(tmp_path: Path) -> LintResult:
    return lint_tree(tmp_path, FILES)


def test_every_format_renders_every_finding(result: LintResult) -> None:
    assert len(result.findings) == 5
    for name, render in FORMATS.items():
        text = render(result, "1.2.3")
        assert text.endswith("\n"), name
        if name != "json":
            for finding in result.findings:
                assert finding.primary.path in text, (name, finding)


def test_json_is_a_valid_lint_report(result: LintResult) -> None:
    data = FORMATS["json"](result, "1.2.3").encode()
    report = load_document(LintReport, "lint", data, "lint.json").value
    assert report.files_scanned == 4
    assert [(r.path, r.line, r.column, r.rule_id) for r in report.findings] == [
        (".github/workflows/broken.yml", 2, 1, "unparseable-file"),
        (".github/workflows/ci.yml", 6, 24, "shell-ignore-failure"),
        (".github/workflows/ci.yml", 7, 28, "continue-on-error"),
        ("pytest.ini", 2, 11, "pytest-config-rerun"),
        ("requirements.txt", 1, 1, "rerun-plugin-dependency"),
    ]
    assert report == result.to_report("1.2.3")


def test_sarif_validates_against_the_official_schema(result: LintResult) -> None:
    log = json.loads(FORMATS["sarif"](result, "1.2.3"))
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    errors = sorted(jsonschema.Draft4Validator(SCHEMA).iter_errors(log), key=str)
    assert errors == []
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [f"lanegate/{r.id}" for r in RULES]
    assert all(
        r["helpUri"]
        == f"https://github.com/lanegate/lanegate/blob/main/docs/lint-rules.md#{r['name']}"
        and r["help"]["text"]
        and r["shortDescription"]["text"]
        for r in rules
    )
    first = run["results"][1]
    assert first["ruleId"] == "lanegate/shell-ignore-failure"
    assert rules[first["ruleIndex"]]["id"] == first["ruleId"]
    assert first["locations"][0]["physicalLocation"]["region"] == {
        "startLine": 6,
        "startColumn": 24,
    }


def test_sarif_schema_catches_a_broken_log(result: LintResult) -> None:
    """The schema really constrains our shape: a result without a message is rejected."""
    log = document(result, "1.2.3")
    del log["runs"][0]["results"][0]["message"]
    assert list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log))


def test_github_annotations_have_title_and_escape_properties(tmp_path: Path) -> None:
    result = lint_tree(tmp_path, {"odd,dir:x/requirements.txt": "flaky\n"})
    line = FORMATS["github"](result, "0").strip()
    assert line.startswith(
        "::error file=odd%2Cdir%3Ax/requirements.txt,line=1,col=1,title=rerun-plugin-dependency::"
    )
    assert "\n" not in line


def test_text_summary_counts(result: LintResult) -> None:
    text = FORMATS["text"](result, "0")
    assert text.splitlines()[-1] == "lanegate lint (lane-b): 4 files scanned, 5 findings"


def test_json_output_is_byte_identical_to_the_ledger_writer(result: LintResult) -> None:
    from lanegate.ledgers.load import dump_bytes

    assert FORMATS["json"](result, "1.2.3").encode("utf-8") == dump_bytes(result.to_report("1.2.3"))


def test_sarif_marks_lane_a_exemptions_as_external_suppressions(tmp_path: Path) -> None:
    from datetime import date

    from lanegate.policy import LintExemption, LintPolicy, Policy
    from lanegate.workflow_lint import lint_paths

    (tmp_path / "requirements.txt").write_text("flaky\npytest-retry\n", encoding="utf-8")
    entry = LintExemption(
        "rerun-plugin-dependency", "requirements.txt", "ticket 9", date(2030, 1, 1)
    )
    policy = Policy(lint=LintPolicy(exemptions=(entry,)), source="lanegate.toml")
    result = lint_paths([tmp_path], mode="lane-a", policy=policy, today=date(2026, 1, 1))
    log = document(result, "0")
    assert list(jsonschema.Draft4Validator(SCHEMA).iter_errors(log)) == []
    assert [r["suppressions"][0]["kind"] for r in log["runs"][0]["results"]] == [
        "external",
        "external",
    ]
