"""Hypothesis properties: names and comments never flag; any retry construct inserted anywhere flags at
its own line; no input crashes the linter or the shell reader."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanegate.workflow_lint.shell import parse_shell
from tests.unit.workflow_lint.helpers import lint_tree, rendered

WORKFLOW = ".github/workflows/ci.yml"
RETRY_WORDS = [
    "retry",
    "retries",
    "rerun",
    "re-run",
    "--reruns 3",
    "flaky",
    "continue-on-error",
    "nick-fields/retry@v3",
    "|| true",
    "until pytest",
]
SAFE_TEXT = st.text(alphabet=st.characters(codec="ascii", categories=("L", "N", "Zs")), max_size=20)
NAME = st.builds(
    lambda a, w, b: f"{a} {w} {b}".strip(), SAFE_TEXT, st.sampled_from(RETRY_WORDS), SAFE_TEXT
)

# clean steps, each a list of lines at step indentation ("- " starts the step)
CLEAN_STEPS = [
    ["- uses: actions/checkout@v4"],
    ["- run: pytest -q"],
    ["- run: pip install --retries 5 -e ."],
    ["- run: curl --retry 3 -fsSLO https://example.com/x"],
    ["- run: pytest --lf"],
    ["- run: pytest -p no:rerunfailures --count 2"],
    ["- if: failure()", "  uses: actions/upload-artifact@v4", "  with: {name: logs, path: out}"],
    ["- run: |", "    python -m pip install -e .", "    pytest tests/"],
    ["- continue-on-error: false", "  run: tox -e py312"],
    ["- timeout-minutes: 5", "  run: make test"],
]
# (lines, rule id, index of the flagged line within the snippet, text the finding points at)
RETRIES = [
    (
        ["- uses: nick-fields/retry@v3", "  with: {command: pytest}"],
        "retry-action",
        0,
        "nick-fields",
    ),
    (["- run: pytest", "  continue-on-error: true"], "continue-on-error", 1, "true"),
    (["- run: pytest || true"], "shell-ignore-failure", 0, "true"),
    (["- run: pytest || pytest --lf"], "shell-rerun-fallback", 0, "pytest --lf"),
    (
        ["- run: |", "    echo go", "    until pytest; do sleep 1; done"],
        "shell-retry-loop",
        2,
        "until",
    ),
    (["- run: pytest --reruns 2"], "test-rerun-flag", 0, "--reruns"),
    (
        ["- run: pip install pytest-rerunfailures"],
        "rerun-plugin-dependency",
        0,
        "pytest-rerunfailures",
    ),
    (["- run: python -m pytest -p flaky"], "rerun-plugin-load", 0, "-p flaky"),
    (
        ["- run: pytest", "  env:", "    PYTEST_ADDOPTS: --reruns 1"],
        "pytest-addopts-rerun",
        2,
        "--reruns",
    ),
    (["- run: gh run rerun 123"], "workflow-rerun", 0, "gh run"),
    (["- if: github.run_attempt > 1", "  run: pytest"], "run-attempt", 0, "run_attempt"),
]
HEADER = [
    "name: {name}  # {comment}",
    "on: push",
    "jobs:",
    "  test:",
    "    runs-on: ubuntu-latest",
    "    steps:",
]
STEP_INDENT = "      "


def _workflow(
    name: str, comment: str, steps: list[list[str]], step_names: list[str]
) -> tuple[str, list[int]]:
    """The workflow text and the 1-based line where each step starts."""
    lines = [h.format(name=name.replace("#", ""), comment=comment) for h in HEADER]
    starts = []
    for step, step_name in zip(steps, step_names, strict=True):
        starts.append(len(lines) + 1)
        lines.extend(STEP_INDENT + line for line in step)
        lines.append(f"{STEP_INDENT}  name: '{step_name.replace(chr(39), '')}'  # {step_name}")
    return "\n".join(lines) + "\n", starts


@settings(
    derandomize=True, max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    name=NAME,
    comment=NAME,
    steps=st.lists(st.sampled_from(CLEAN_STEPS), min_size=1, max_size=6),
    data=st.data(),
)
def test_names_and_comments_that_mention_retries_never_flag(
    name: str, comment: str, steps: list[list[str]], data: st.DataObject
) -> None:
    step_names = data.draw(st.lists(NAME, min_size=len(steps), max_size=len(steps)))
    text, _ = _workflow(name, comment, steps, step_names)
    with tempfile.TemporaryDirectory() as tmp:
        result = lint_tree(Path(tmp), {WORKFLOW: text})
    assert rendered(result) == []


@settings(
    derandomize=True, max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    steps=st.lists(st.sampled_from(CLEAN_STEPS), min_size=0, max_size=5),
    retry=st.sampled_from(RETRIES),
    data=st.data(),
)
def test_any_retry_inserted_anywhere_flags_at_its_own_line(
    steps: list[list[str]], retry: tuple[list[str], str, int, str], data: st.DataObject
) -> None:
    lines, rule_id, line_index, token = retry
    column = lines[line_index].index(token) + 1
    position = data.draw(st.integers(min_value=0, max_value=len(steps)))
    all_steps = [*steps[:position], lines, *steps[position:]]
    text, starts = _workflow("ci", "retry-free", all_steps, ["step"] * len(all_steps))
    expected = f"{WORKFLOW}:{starts[position] + line_index}:{len(STEP_INDENT) + column} {rule_id}"
    with tempfile.TemporaryDirectory() as tmp:
        result = lint_tree(Path(tmp), {WORKFLOW: text})
    assert expected in rendered(result)
    assert all(
        f.primary.line is not None
        and starts[position] <= f.primary.line < starts[position] + len(lines)
        for f in result.findings
    )


@settings(derandomize=True, max_examples=80, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_workflow_text_never_crashes(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        result = lint_tree(
            Path(tmp),
            {
                WORKFLOW: text,
                "pyproject.toml": text,
                "tox.ini": text,
                "tests/test_x.py": "# retry\n" + text,
            },
        )
    for finding in result.findings:
        assert finding.rule_id
        assert finding.primary.line is None or finding.primary.line >= 1


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *"ab ;|&(){}'\"$`\\\n#<>=-",
                "until ",
                "do ",
                "done",
                "for ",
                "pytest",
                "<<EOF\n",
                "EOF\n",
                "${{ x }}",
                "$(",
            ]
        ),
        max_size=40,
    ).map("".join)
)
def test_shell_reader_never_crashes_and_positions_stay_inside(script: str) -> None:
    parsed = parse_shell(script)
    lines = script.split("\n")
    for command in parsed.commands:
        for word in command.words:
            assert 0 <= word.line < len(lines)
            assert 0 <= word.col <= len(lines[word.line])


TEST_COMMANDS = [
    "pytest -q",
    "python -m pytest tests/",
    "tox -e py312",
    "nox -s tests",
    "hatch test",
    "spin test",
    "yarn test",
    "npx jest --ci",
    "cargo test --workspace",
    "go test ./...",
    "bundle exec rspec",
    "mvn -B verify",
]
AFTER = ["true", ":", "echo failed", "exit 0", "pytest --lf", "tox -e py312 -- --lf", "yarn test"]
NON_EVIDENCE_STEPS = [
    ["- uses: actions/upload-artifact@v4", "  with: {name: cov, path: .coverage}"],
    ["- uses: codecov/codecov-action@v5"],
    ["- uses: actions/labeler@v5"],
    ["- uses: tj-actions/changed-files@v45", "  id: changed"],
    ["- uses: release-drafter/release-drafter@v6"],
    ["- uses: slackapi/slack-github-action@v2"],
    ["- run: coverage combine && coverage xml"],
    ["- run: pipx run pre-commit run --all-files"],
]


@settings(derandomize=True, max_examples=40, deadline=None)
@given(
    first=st.sampled_from(TEST_COMMANDS),
    links=st.lists(st.sampled_from(TEST_COMMANDS + AFTER), min_size=1, max_size=12),
)
def test_one_finding_per_or_chain_whatever_its_length(first: str, links: list[str]) -> None:
    chain = " || ".join([first, *links])
    with tempfile.TemporaryDirectory() as tmp:
        text = (
            "\n".join([*HEADER[1:], f"{STEP_INDENT}- run: |", f"{STEP_INDENT}    {chain}"]) + "\n"
        )
        found = rendered(lint_tree(Path(tmp), {WORKFLOW: text}))
    assert len(found) == 1, found
    assert found[0].endswith(("shell-rerun-fallback", "shell-ignore-failure"))


@settings(derandomize=True, max_examples=30, deadline=None)
@given(command=st.sampled_from(TEST_COMMANDS), between=st.sampled_from(["", "coverage xml"]))
def test_a_captured_status_that_is_exited_with_never_flags(command: str, between: str) -> None:
    body = ["status=0", f"{command} || status=$?", between, "exit $status"]
    step = ["- run: |", *(f"    {line}" for line in body if line)]
    with tempfile.TemporaryDirectory() as tmp:
        text = "\n".join([*HEADER[1:], *(STEP_INDENT + line for line in step)]) + "\n"
        assert rendered(lint_tree(Path(tmp), {WORKFLOW: text})) == []


@settings(derandomize=True, max_examples=30, deadline=None)
@given(steps=st.lists(st.sampled_from(NON_EVIDENCE_STEPS), min_size=1, max_size=6))
def test_continue_on_error_on_steps_without_test_evidence_never_flags(
    steps: list[list[str]],
) -> None:
    lines: list[str] = [f"{STEP_INDENT}- run: pytest -q"]
    for step in steps:
        lines.extend(STEP_INDENT + line for line in step)
        lines.append(f"{STEP_INDENT}  continue-on-error: true")
    with tempfile.TemporaryDirectory() as tmp:
        text = "\n".join([*HEADER[1:], *lines]) + "\n"
        assert rendered(lint_tree(Path(tmp), {WORKFLOW: text})) == []
