"""benchmarks/candidates_bench.py --smoke: one candidate judged alone and as a batch, both costs
printed, the verdicts equal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_candidates_bench_smoke_prints_both_costs_and_equal_verdicts() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "candidates_bench.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.strip().startswith("1 ")]
    assert len(rows) == 1, done.stdout
    assert rows[0][-2:] == ["all", "equal"], done.stdout
    assert "load after:" in done.stdout
