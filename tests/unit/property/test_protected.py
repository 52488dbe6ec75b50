"""Base test files served from verified bytes: what head code writes over them is never run."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

FORGED = "def test_b():\n    pass\n"
# imported by the first test module: rewrites the second before pytest collects it
REWRITER = f"""
import pathlib

_HERE = pathlib.Path(__file__).parent
(_HERE / "tests" / "test_b.py").write_text({FORGED!r})
"""
TEST_A = "import rewriter\n\n\ndef test_a():\n    assert rewriter\n"
TEST_B = "def test_b():\n    assert 1 == 2\n"


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "tests").mkdir(parents=True)
    (tmp_path / "rewriter.py").write_text(REWRITER)
    (tmp_path / "tests" / "test_a.py").write_text(TEST_A)
    (tmp_path / "tests" / "test_b.py").write_text(TEST_B)
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    return tmp_path


def _run(root: Path, protect: dict[str, str] | None) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    args += ["-p", "lanegate.lanes.property.plugin", "--continue-on-collection-errors"]
    args += ["tests/test_a.py", "tests/test_b.py"]
    if protect is not None:
        listing = root.parent / f"{root.name}-protect.json"
        listing.write_text(json.dumps(protect))
        args.append(f"--lanegate-protect={listing}")
    return subprocess.run(args, cwd=root, capture_output=True, text=True, check=False)


def _digests(root: Path, *paths: str) -> dict[str, str]:
    return {p: hashlib.sha256((root / p).read_bytes()).hexdigest() for p in paths}


def test_a_base_test_file_rewritten_during_the_run_is_not_collected(tmp_path: Path) -> None:
    unprotected = _tree(tmp_path / "plain")
    done = _run(unprotected, None)
    assert done.returncode == 0, done.stdout  # the rewrite works on a plain run: 2 passed
    protected = _tree(tmp_path / "guarded")
    done = _run(protected, _digests(protected, "tests/test_a.py", "tests/test_b.py"))
    assert done.returncode != 0
    assert "tests/test_b.py: not the base's file" in done.stdout, done.stdout
    assert "1 passed" in done.stdout and "1 error" in done.stdout


def test_verified_test_files_keep_pytests_assertion_rewriting(tmp_path: Path) -> None:
    root = _tree(tmp_path / "r")
    (root / "rewriter.py").write_text("")  # nothing rewrites anything
    done = _run(root, _digests(root, "tests/test_a.py", "tests/test_b.py"))
    assert done.returncode == 1 and "1 failed, 1 passed" in done.stdout, done.stdout
    assert "assert 1 == 2" in done.stdout  # the rewritten assert's own report


@pytest.mark.parametrize("listing", ["[]", '{"tests/test_a.py": 1}', "not json"])
def test_a_malformed_listing_is_a_usage_error_naming_the_option(
    tmp_path: Path, listing: str
) -> None:
    root = _tree(tmp_path / "r")
    path = tmp_path / "protect.json"
    path.write_text(listing)
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    args += ["-p", "lanegate.lanes.property.plugin", f"--lanegate-protect={path}", "tests"]
    done = subprocess.run(args, cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 4 and "--lanegate-protect" in done.stderr, done.stderr
