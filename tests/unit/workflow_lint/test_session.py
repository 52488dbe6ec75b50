"""The lint session: fail-closed reading, discovery, local uses, and lane-a exemptions."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from lanegate.errors import UsageError
from lanegate.policy import LintExemption, LintPolicy, Policy
from lanegate.workflow_lint import lint_paths
from lanegate.workflow_lint.discover import discover
from lanegate.workflow_lint.session import MAX_FILE_BYTES
from tests.unit.workflow_lint.helpers import TODAY, lint_tree, rendered, write_tree

WF = ".github/workflows/ci.yml"
RETRYING = "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: pytest --reruns 2\n"


def test_oversized_file_is_a_finding_not_a_skip(tmp_path: Path) -> None:
    big = "# " + "x" * MAX_FILE_BYTES + "\n"
    result = lint_tree(tmp_path, {WF: big})
    assert rendered(result) == [f"{WF} oversized-file"]


def test_non_utf8_file_is_a_finding(tmp_path: Path) -> None:
    result = lint_tree(tmp_path, {"requirements.txt": b"pytest\n\xff\xfe\n"})
    assert rendered(result) == ["requirements.txt:2 unparseable-file"]


def test_no_inline_comment_silences_a_rule(tmp_path: Path) -> None:
    text = RETRYING.replace("--reruns 2", "--reruns 2  # noqa lanegate: ignore[test-rerun-flag]")
    assert rendered(lint_tree(tmp_path, {WF: text})) == [f"{WF}:6:21 test-rerun-flag"]


def test_a_single_file_path_is_linted_relative_to_its_repository(tmp_path: Path) -> None:
    write_tree(tmp_path, {WF: RETRYING, ".git/HEAD": "ref: refs/heads/main\n"})
    result = lint_paths([tmp_path / WF], today=TODAY)
    assert rendered(result) == [f"{WF}:6:21 test-rerun-flag"]
    assert result.files_scanned == 1


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such file"):
        lint_paths([tmp_path / "nope"], today=TODAY)


def test_discovery_prunes_what_pytest_never_collects(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "tests/conftest.py": 'collect_ignore_glob = ["examples*"]\n',
            "tests/examples/test_bad.py": "import flaky\n@flaky\ndef test_x(): pass\n",
            "tests/test_ok.py": "def test_ok(): pass\n",
            ".venv/lib/requirements.txt": "flaky\n",
            "node_modules/x/action.yml": "runs: {using: composite, steps: []}\n",
            "env/pyvenv.cfg": "home = /usr\n",
            "env/requirements.txt": "flaky\n",
            "requirements/test.txt": "pytest\n",
            WF: "on: push\njobs: {}\n",
        },
    )
    assert [d.path for d in discover(tmp_path)] == [
        WF,
        "requirements/test.txt",
        "tests/conftest.py",
        "tests/test_ok.py",
    ]


def test_local_action_outside_the_root_is_not_followed(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "outside/action.yml": "runs:\n  using: composite\n  steps:\n    - run: pytest || true\n      shell: bash\n"
        },
    )
    repo = tmp_path / "repo"
    result = lint_tree(
        repo,
        {WF: "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - uses: ./../outside\n"},
    )
    assert rendered(result) == []


def test_local_action_cycles_terminate(tmp_path: Path) -> None:
    action = "runs:\n  using: composite\n  steps:\n    - uses: ./.github/actions/{other}\n    - run: pytest || true\n      shell: bash\n"
    result = lint_tree(
        tmp_path,
        {
            ".github/actions/a/action.yml": action.format(other="b"),
            ".github/actions/b/action.yml": action.format(other="a"),
        },
    )
    assert sorted(f.rule_id for f in result.findings) == [
        "local-action-retries",
        "shell-ignore-failure",
        "shell-ignore-failure",
    ]


def _policy(*entries: LintExemption) -> Policy:
    return Policy(lint=LintPolicy(exemptions=entries), source="lanegate.toml")


def test_lane_b_honours_no_exemption(tmp_path: Path) -> None:
    write_tree(tmp_path, {WF: RETRYING})
    policy = _policy(LintExemption("test-rerun-flag", WF, "known flake", date(2030, 1, 1)))
    result = lint_paths([tmp_path], mode="lane-b", policy=policy, today=TODAY)
    assert rendered(result) == [f"{WF}:6:21 test-rerun-flag"]
    assert result.exempted == ()


def test_lane_a_exempts_only_with_an_unexpired_matching_entry(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            WF: RETRYING,
            "tests/test_a.py": "import pytest\n@pytest.mark.flaky(reruns=1)\ndef test_net(): pass\n@pytest.mark.flaky\ndef test_db(): pass\n",
        },
    )
    policy = _policy(
        LintExemption("test-rerun-flag", WF, "known flake, ticket 12", date(2026, 6, 1)),
        LintExemption("flaky-marker", "tests/test_a.py::test_net", "network", date(2026, 12, 31)),
        LintExemption("continue-on-error", WF, "old entry", date(2026, 5, 31)),
    )
    result = lint_paths([tmp_path], mode="lane-a", policy=policy, today=TODAY)
    assert rendered(result) == [
        "lanegate.toml expired-exemption",
        "tests/test_a.py:4:2 flaky-marker",
    ]
    assert sorted(f"{f.primary.render()} {f.rule_id}" for f in result.exempted) == [
        f"{WF}:6:21 test-rerun-flag",
        "tests/test_a.py:2:2 flaky-marker",
    ]
    report = result.to_report("0")
    assert [(r.path, r.exempted) for r in report.findings] == [
        (WF, True),
        ("lanegate.toml", False),
        ("tests/test_a.py", True),
        ("tests/test_a.py", False),
    ]


def test_lane_a_without_exemptions_counts_everything(tmp_path: Path) -> None:
    write_tree(tmp_path, {WF: RETRYING})
    result = lint_paths([tmp_path], mode="lane-a", policy=None, today=TODAY)
    assert rendered(result) == [f"{WF}:6:21 test-rerun-flag"]


def test_a_fifo_workflow_is_a_finding_not_a_hang(tmp_path: Path) -> None:
    (tmp_path / ".github/workflows").mkdir(parents=True)
    os.mkfifo(tmp_path / WF)
    result = lint_paths([tmp_path], today=TODAY)
    assert rendered(result) == [f"{WF} unparseable-file"]
    assert "not a regular file" in result.findings[0].message


def test_a_symlink_to_an_endless_device_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / ".github/workflows").mkdir(parents=True)
    (tmp_path / WF).symlink_to("/dev/zero")
    (tmp_path / "conftest.py").symlink_to("/dev/urandom")
    result = lint_paths([tmp_path], today=TODAY)
    assert sorted(rendered(result)) == [f"{WF} unparseable-file", "conftest.py unparseable-file"]


def test_an_empty_or_comment_only_workflow_is_a_finding(tmp_path: Path) -> None:
    result = lint_tree(tmp_path, {WF: "# nothing here\n\n"})
    assert rendered(result) == [f"{WF} unparseable-file"]


def test_a_deep_local_action_chain_ends_in_a_finding_not_a_recursion_error(tmp_path: Path) -> None:
    files = {
        f".github/actions/a{i}/action.yml": f"runs:\n  using: composite\n  steps:\n    - uses: ./.github/actions/a{i + 1}\n"
        for i in range(200)
    }
    files[WF] = (
        "on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - uses: ./.github/actions/a0\n"
    )
    result = lint_tree(tmp_path, files)
    # the action past the depth limit is reported through the action that calls it
    assert any("(unparseable-file;" in f.message for f in result.findings)
    assert {f.rule_id for f in result.findings} == {"local-action-retries"}
    assert f"{WF}:6:15 local-action-retries" in rendered(result)


def test_nested_workflows_and_powershell_tests_are_listed_not_linted(tmp_path: Path) -> None:
    pwsh = "on: push\njobs:\n  t:\n    runs-on: windows-latest\n    steps:\n      - run: python -m pytest || exit 0\n        shell: pwsh\n"
    result = lint_tree(tmp_path, {WF: pwsh, "vendor/lib/.github/workflows/ci.yml": RETRYING})
    assert rendered(result) == []
    assert result.skipped == (
        ".github/workflows/ci.yml:6: a pwsh script runs tests: not analysed",
        "vendor/lib/.github/workflows/ci.yml: not an active workflow (GitHub only runs the root's .github/workflows)",
    )


def test_a_symlink_to_nothing_is_not_a_file_to_lint(tmp_path: Path) -> None:
    write_tree(tmp_path, {WF: RETRYING})
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "pyproject.toml").symlink_to("../pyproject.toml ")
    assert rendered(lint_paths([tmp_path], today=TODAY)) == [f"{WF}:6:21 test-rerun-flag"]
