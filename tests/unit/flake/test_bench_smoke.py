from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_flake_bench_smoke_runs_every_strategy() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "flake_bench.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    for name in ("(a) spec minimum", "(b) flakefinder", "(c) randomly", "(d) lanegate"):
        assert name in out
    assert "lanegate CPU vs spec minimum:" in out
    ours = next(line for line in out.splitlines() if line.startswith("(d) lanegate"))
    # The smoke modules hold only flakes the plan catches by construction, and no false positive.
    assert "100%" in ours and " 0/" in ours
