"""A test file pytest cannot collect in the sandbox: the exception line, and a fix for an import the
sandbox lacks (a package lanegate's interpreter finds outside the repository)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from lanegate.lanes.collect_failure import error_line, import_hint
from lanegate.lanes.flake.collect import collect
from lanegate.sandbox import open_sandbox


def test_the_exception_line_of_a_collection_report() -> None:
    report = (
        "ImportError while importing test module '/r/tests/test_a.py'.\n"
        "tests/test_a.py:1: in <module>\n    import extdep\n"
        "E   ModuleNotFoundError: No module named 'extdep'\n"
    )
    assert error_line(report) == "ModuleNotFoundError: No module named 'extdep'"
    assert error_line("SyntaxError: invalid syntax\n") == "SyntaxError: invalid syntax"
    assert error_line("") == ""


def test_a_package_found_outside_the_repository_is_named_with_a_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    outside = tmp_path / "elsewhere"
    (outside / "i43_extdep").mkdir(parents=True)
    (outside / "i43_extdep" / "__init__.py").write_text("X = 1\n", encoding="utf-8")
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "tests" / "test_a.py").write_text(
        "import i43_extdep\n\n\ndef test_a():\n    assert i43_extdep.X == 1\n", encoding="utf-8"
    )
    # lanegate's interpreter finds the package (an editable install's path entry); the sandboxed
    # test process, which sees the repository and the installed packages only, does not
    monkeypatch.syspath_prepend(str(outside))
    with open_sandbox(repo) as sandbox, tempfile.TemporaryDirectory() as work:
        found = collect(repo, ["tests/test_a.py"], (), 60, Path(work), sandbox=sandbox)
    assert found.failed("tests/test_a.py")
    detail = found.error_of("tests/test_a.py")
    assert detail == "ModuleNotFoundError: No module named 'i43_extdep'"
    hint = import_hint(detail, repo)
    assert f"i43_extdep is installed from {outside / 'i43_extdep'}, outside the repository" in hint
    assert "without -e" in hint


def test_a_module_installed_nowhere_and_other_errors() -> None:
    repo = Path("/nonexistent-repo")
    hint = import_hint("ModuleNotFoundError: No module named 'no_such_module_i43.sub'", repo)
    assert hint.startswith("no_such_module_i43 is not installed where the tests run")
    assert import_hint("SyntaxError: invalid syntax", repo) == ""
