"""Shared helpers of the property lane tests: a copy of the proof target library."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

TARGET = Path(__file__).resolve().parents[2] / "cases" / "property" / "target"


@pytest.fixture
def target_copy(tmp_path: Path) -> Path:
    dest = tmp_path / "target"
    shutil.copytree(TARGET, dest, ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
    return dest
