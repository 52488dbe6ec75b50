"""Each row of the known non-test actions table: `continue-on-error` on a step using it forgives no
test evidence; an action the table (and the name heuristics) do not know stays evidence."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate.workflow_lint.known_actions import NON_TEST_ACTIONS, non_test_action
from tests.unit.workflow_lint.helpers import lint_tree, rendered

WORKFLOW = """on: pull_request
jobs:
  t:
    runs-on: ubuntu-latest
    steps:
      - run: python -m pytest
      - uses: {uses}@0123456789abcdef0123456789abcdef01234567 # v1
        continue-on-error: true
"""


def _concrete(pattern: str) -> str:
    return pattern.replace("/*", "/analyze")


@pytest.mark.parametrize(
    ("pattern", "what"), NON_TEST_ACTIONS, ids=[p for p, _ in NON_TEST_ACTIONS]
)
def test_each_row_is_not_test_evidence(tmp_path: Path, pattern: str, what: str) -> None:
    uses = _concrete(pattern).upper()  # GitHub matches owner and repository in any case
    assert non_test_action(_concrete(pattern)) == what
    result = lint_tree(tmp_path, {".github/workflows/ci.yml": WORKFLOW.format(uses=uses)})
    assert rendered(result) == []


@pytest.mark.parametrize(
    "uses",
    ["someone/run-the-suite", "satackey/action-docker-layer-runner", "azure/loginless-runner"],
)
def test_an_unknown_action_stays_evidence(tmp_path: Path, uses: str) -> None:
    assert non_test_action(uses) is None
    result = lint_tree(tmp_path, {".github/workflows/ci.yml": WORKFLOW.format(uses=uses)})
    assert rendered(result) == [".github/workflows/ci.yml:8:28 continue-on-error"]
    assert "fail closed" in result.findings[0].message
