""".ci/release_check.py, run on a copy of the files it reads: a release tag must name __version__
and a dated CHANGELOG.md section; anything else is one line and exit 1, never release notes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lanegate._version import __version__

ROOT = Path(__file__).resolve().parents[3]


def _copy(tmp_path: Path, changelog: str) -> Path:
    (tmp_path / ".ci").mkdir()
    shutil.copy2(ROOT / ".ci" / "release_check.py", tmp_path / ".ci")
    (tmp_path / "src" / "lanegate").mkdir(parents=True)
    shutil.copy2(ROOT / "src" / "lanegate" / "_version.py", tmp_path / "src" / "lanegate")
    (tmp_path / "CHANGELOG.md").write_text(changelog, encoding="utf-8")
    return tmp_path


def _check(root: Path, tag: str) -> tuple[subprocess.CompletedProcess[str], Path]:
    notes = root / "notes.md"
    done = subprocess.run(
        [sys.executable, str(root / ".ci" / "release_check.py"), tag, str(notes)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return done, notes


DATED = f"# Changelog\n\n## [{__version__}] - 2026-12-07\n\nThe notes.\n\n## [0.9.0] - 2026-01-01\n\nOld.\n"


def test_a_dated_section_of_this_version_is_the_notes(tmp_path: Path) -> None:
    done, notes = _check(_copy(tmp_path, DATED), f"v{__version__}")
    assert done.returncode == 0, done.stderr
    assert notes.read_text(encoding="utf-8") == "The notes.\n"


@pytest.mark.parametrize(
    ("tag", "changelog", "message"),
    [
        ("v1.0", DATED, "tag 'v1.0': not vMAJOR.MINOR.PATCH"),
        ("v99.0.0", DATED, f"tag v99.0.0: __version__ is '{__version__}'; set it to '99.0.0'"),
        (f"v{__version__}", "# Changelog\n", f"CHANGELOG.md: no section '## [{__version__}] - "),
        (
            f"v{__version__}",
            f"## [{__version__}] - unreleased\n",
            f"CHANGELOG.md: section [{__version__}] is dated 'unreleased'",
        ),
    ],
)
def test_anything_else_is_refused_with_one_line(
    tmp_path: Path, tag: str, changelog: str, message: str
) -> None:
    done, notes = _check(_copy(tmp_path, changelog), tag)
    assert done.returncode == 1
    assert done.stderr.startswith(f"release: {message}") and done.stderr.count("\n") == 1
    assert not notes.exists()
