"""A newcomer's first commands: one-line errors outside git, without commits, with nothing to lint or
a malformed policy; `explain`, `lint --list-rules`, `run --authorship`; reasons wrapped, not cut."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from lanegate.ledgers.models import ReportReason
from lanegate.reporting.terminal import render_table
from tests.gitrepo import Repo
from tests.integration.scripted_display import REPORT


def _lanegate(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def _one_line_error(done: subprocess.CompletedProcess[str], needle: str) -> None:
    assert done.returncode == 2, done.stdout + done.stderr
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0], done.stderr
    assert "Traceback" not in done.stderr


def test_outside_git_and_without_commits(tmp_path: Path, make_repo: Callable[[str], Repo]) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    _one_line_error(_lanegate(plain, "run"), "not inside a git repository")
    empty = make_repo("empty")
    _one_line_error(_lanegate(empty.path, "run"), "the repository has no commit yet")


def test_lint_fails_closed_on_nothing_to_read_and_on_a_bad_policy(tmp_path: Path) -> None:
    _one_line_error(_lanegate(tmp_path, "lint"), "no workflow, action or test configuration")
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "lanegate.toml").write_text("[lane\n")
    _one_line_error(_lanegate(tmp_path, "lint"), "lanegate.toml: invalid TOML")
    (tmp_path / "lanegate.toml").write_text("[lane]\nnmae = 'x'\n")
    _one_line_error(_lanegate(tmp_path, "lint"), "nmae")
    (tmp_path / "lanegate.toml").unlink()
    assert _lanegate(tmp_path, "lint").returncode == 0


def test_explain_and_list_rules(tmp_path: Path) -> None:
    done = _lanegate(tmp_path, "explain", "property-mutant-budget")
    assert done.returncode == 0 and "fails when: killed_mutants < mutant_budget" in done.stdout
    lint_rule = _lanegate(tmp_path, "explain", "lanegate/continue-on-error")
    assert lint_rule.returncode == 0 and "docs/lint-rules.md#continue-on-error" in lint_rule.stdout
    _one_line_error(_lanegate(tmp_path, "explain", "no-such-rule"), "no such rule id")
    listed = _lanegate(tmp_path, "lint", "--list-rules")
    assert listed.returncode == 0
    assert listed.stdout.splitlines()[0].startswith("retry-action ")
    assert len(listed.stdout.splitlines()) >= 20


def test_run_takes_authorship(tmp_path: Path) -> None:
    done = _lanegate(tmp_path, "run", "--help")
    assert "--authorship {agent,human}" in done.stdout


def test_reasons_wrap_at_the_width_instead_of_being_cut() -> None:
    reason = ReportReason(
        lane="property",
        rule_id="property-mutant-budget",
        severity="error",
        message="word " * 60 + "END",
        path="property.json",
        line=None,
        fix="add properties " * 10 + "FIXEND",
    )
    report = replace(REPORT, fails=(reason,))
    text = render_table(report, "r.json", width=60)
    assert "..." not in text
    assert "END" in text and "FIXEND" in text
    assert all(len(line) <= 60 for line in text.splitlines())
