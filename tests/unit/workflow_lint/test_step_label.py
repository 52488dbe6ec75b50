"""A lint message names a step the way a reader finds it: its name, else its `uses`, else its run's
first line; a position only when the step has none of them."""

from __future__ import annotations

import pytest

from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import FileKind
from lanegate.workflow_lint.yamldoc import parse_yaml

WORKFLOW = """on: push
jobs:
  t:
    runs-on: x
    steps:
      - name: Run the tests
        run: pytest
      - uses: actions/checkout@v4
      - run: |
          python -m pytest -x
          echo done
      - run: "{long}"
      - id: only-an-id
"""


@pytest.mark.parametrize(
    ("index", "label"),
    [
        (0, "step 'Run the tests'"),
        (1, "step `uses: actions/checkout@v4`"),
        (2, "step `python -m pytest -x`"),
        (3, "step `" + "x" * 59 + "…`"),
        (4, "step 5"),
    ],
)
def test_label(index: int, label: str) -> None:
    ctx = FileContext(".github/workflows/ci.yml", FileKind.WORKFLOW, "")
    ctx.yaml = parse_yaml(WORKFLOW.replace("{long}", "x" * 80))
    assert ctx.steps()[index].label == label
