"""benchmarks/mutant_bench.py --smoke runs lanegate twice and mutmut 3 once, and fails loudly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "mutant_bench.py"


def test_mutant_bench_smoke() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--smoke"], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "status flips between two identical runs: 0" in done.stdout
    assert "errors: 0" in done.stdout
    assert "killed by the honest suite: 0" in done.stdout
    assert "mutmut 3:" in done.stdout and "mutants/s" in done.stdout
