"""GitHub expressions over known input values: what can be told, and UNKNOWN for the rest."""

from __future__ import annotations

import pytest

from lanegate.workflow_lint.expressions import UNKNOWN, evaluate, truthy

NAMES = {"inputs.python": "3.x", "inputs.dev": False, "inputs.n": 2.0}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("${{ inputs.python == '3.15' || inputs.python == 'pypy3.11' }}", False),
        ("${{ inputs.python == '3.X' }}", True),  # strings compare ignoring case
        ("${{ inputs.python != '3.x' }}", False),
        ("${{ !inputs.dev }}", True),
        ("${{ inputs.dev && inputs.python }}", False),
        ("${{ inputs.dev || inputs.python }}", "3.x"),  # || yields an operand
        ("${{ (inputs.n == 2) && 'yes' }}", "yes"),
        ("${{ 'it''s' }}", "it's"),
        ("${{ null }}", None),
        ("true", "true"),  # no expression: the scalar's own text
    ],
)
def test_known_values(text: str, expected: object) -> None:
    assert evaluate(text, NAMES) == expected


@pytest.mark.parametrize(
    "text",
    [
        "${{ inputs.other == 'x' }}",  # a name not given
        "${{ matrix.python == '3.15' }}",
        "${{ contains(inputs.python, '3.15') }}",  # a function
        "${{ inputs.n == '2' }}",  # GitHub coerces across types: not guessed
        "${{ inputs.python == }}",
        "${{ (inputs.dev }}",
        "${{ inputs.dev }} and ${{ inputs.python }}",
        "${{ " + "!" * 500 + "inputs.dev }}",  # past the token cap
    ],
)
def test_what_lint_cannot_tell_is_unknown(text: str) -> None:
    value = evaluate(text, NAMES)
    assert value is UNKNOWN and truthy(value) is UNKNOWN


def test_unknown_absorbs_or_and_and() -> None:
    assert evaluate("${{ inputs.other || inputs.dev }}", NAMES) is UNKNOWN
    # a false left side decides && without the unknown right side, as GitHub short-circuits
    assert evaluate("${{ inputs.dev && inputs.other }}", NAMES) is False
