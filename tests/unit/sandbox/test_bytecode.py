"""lanegate's own byte code is written outside the sandbox (`sandbox/bytecode.py`): real compiles into a
package of the test's own, never lanegate's checkout."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

import lanegate
from lanegate.sandbox import bytecode, open_sandbox


def _package(root: Path) -> Path:
    pkg = root / "ownpkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("VALUE = 1\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "deep.py").write_text("def f():\n    return 2\n")
    return pkg


def _cached(path: Path) -> Path:
    return Path(importlib.util.cache_from_source(str(path)))


def test_missing_and_stale_byte_code_is_written_and_fresh_is_left(tmp_path: Path) -> None:
    pkg = _package(tmp_path)
    deep = pkg / "sub" / "deep.py"
    assert bytecode.compile_package(pkg)
    assert _cached(pkg / "__init__.py").is_file() and _cached(deep).is_file()
    first = _cached(deep).stat().st_mtime_ns
    assert bytecode.compile_package(pkg)
    assert _cached(deep).stat().st_mtime_ns == first  # up to date: not rewritten
    deep.write_text("def f():\n    return 3\n")
    os.utime(deep, ns=(first + 10**9, first + 10**9))  # newer than its byte code
    assert bytecode.compile_package(pkg)
    assert _cached(deep).stat().st_mtime_ns != first


def test_a_module_that_cannot_compile_or_be_written_fails_soft_and_quietly(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    pkg = _package(tmp_path)
    (pkg / "broken.py").write_text("def (:\n")
    (pkg / "sub" / "__pycache__").write_text("a file where the cache folder goes\n")
    assert not bytecode.compile_package(pkg)
    assert _cached(pkg / "__init__.py").is_file()  # the rest still compiled
    assert not _cached(pkg / "sub" / "deep.py").exists()
    assert capfd.readouterr() == ("", "")
    assert not bytecode.compile_package(tmp_path / "no-such-package")


def test_a_sandbox_opens_with_lanegates_byte_code_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pkg = _package(tmp_path)
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.setattr(lanegate, "__file__", str(pkg / "__init__.py"))
    monkeypatch.setattr(bytecode, "_warmed", False)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    with open_sandbox(repo):
        pass
    assert not _cached(pkg / "sub" / "deep.py").exists()  # PYTHONDONTWRITEBYTECODE is obeyed
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    with open_sandbox(repo):
        pass
    assert _cached(pkg / "sub" / "deep.py").is_file()
    assert not any(repo.iterdir())  # nothing written in the repository
    (pkg / "late.py").write_text("X = 1\n")
    with open_sandbox(repo):
        pass
    assert not _cached(pkg / "late.py").exists()  # once per process
