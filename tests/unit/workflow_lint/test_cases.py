"""Every example repository under tests/cases/workflow_lint lints to exactly its expected.txt."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from lanegate.workflow_lint import lint_paths
from lanegate.workflow_lint.registry import RULES_BY_ID

CASES = Path(__file__).resolve().parents[2] / "cases" / "workflow_lint"
TODAY = date(2026, 1, 1)


def _cases() -> list[pytest.param]:
    return [
        pytest.param(rule_dir.name, outcome, case, id=f"{rule_dir.name}/{outcome}/{case.name}")
        for rule_dir in sorted(p for p in CASES.iterdir() if p.is_dir())
        for outcome in ("flagged", "clean")
        if (rule_dir / outcome).is_dir()
        for case in sorted(p for p in (rule_dir / outcome).iterdir() if p.is_dir())
    ]


CASE_PARAMS = _cases()


def _expected(case: Path) -> list[str]:
    lines = (case / "expected.txt").read_text(encoding="utf-8").splitlines()
    return sorted(line.strip() for line in lines if line.strip() and not line.startswith("#"))


@pytest.mark.parametrize(("rule_id", "outcome", "case"), CASE_PARAMS)
def test_case_lints_to_exactly_its_expected_findings(
    rule_id: str, outcome: str, case: Path
) -> None:
    result = lint_paths([case], today=TODAY)
    actual = sorted(f"{f.primary.render()} {f.rule_id}" for f in result.findings)
    expected = _expected(case)
    assert actual == expected
    if outcome == "flagged":
        assert any(line.endswith(f" {rule_id}") for line in expected), (
            "a flagged case must show its rule"
        )
    else:
        assert expected == [], "a clean case has no findings at all"


def test_case_folders_are_named_after_rules() -> None:
    assert {p.name for p in CASES.iterdir() if p.is_dir()} <= set(RULES_BY_ID)


def test_enough_cases_of_each_kind() -> None:
    flagged = [p for p in CASE_PARAMS if p.values[1] == "flagged"]
    clean = [p for p in CASE_PARAMS if p.values[1] == "clean"]
    assert len(flagged) >= 40
    assert len(clean) >= 20


def test_every_finding_rule_has_a_flagged_case() -> None:
    covered = {p.values[0] for p in CASE_PARAMS if p.values[1] == "flagged"}
    # the two whose input is a policy entry or a 2 MiB file are proven in test_session.py instead
    assert set(RULES_BY_ID) - covered == {"expired-exemption", "oversized-file"}


def test_every_rule_has_a_docs_section_and_a_module_of_its_name() -> None:
    docs = (CASES.parents[2] / "docs" / "lint-rules.md").read_text(encoding="utf-8")
    rules_dir = CASES.parents[2] / "src" / "lanegate" / "workflow_lint" / "rules"
    for rule_id in RULES_BY_ID:
        assert f"\n## {rule_id}\n" in docs, rule_id
        section = docs.split(f"\n## {rule_id}\n", 1)[1].split("\n## ", 1)[0]
        assert "**What.**" in section and "**Why.**" in section and "**Fix.**" in section, rule_id
        assert "```" in section, rule_id
        assert (rules_dir / f"{rule_id.replace('-', '_')}.py").is_file(), rule_id
