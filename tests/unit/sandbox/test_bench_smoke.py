"""The sandbox benchmark runs at its smoke size and prints every number it promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_sandbox_bench_smoke_prints_its_ratios() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "sandbox_bench.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for label in ("start alone (true)", "pytest whole suite", "property", "fixture", "flake"):
        assert label in done.stdout, done.stdout
    assert "worst per-process overhead against the target" in done.stdout
    assert "nan" not in done.stdout
