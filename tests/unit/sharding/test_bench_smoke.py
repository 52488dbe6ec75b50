"""benchmarks/shard_bench.py --smoke runs 1 and 2 property shards as processes and prints its ratios."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_shard_bench_smoke_prints_its_speed_up_and_merges_without_flips() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "shard_bench.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for label in ("load before:", "N=1:", "N=2 shard 1/2:", "N=2 shard 2/2:", "speed-up at N=2"):
        assert label in done.stdout, done.stdout
    assert "status differences: 0" in done.stdout
    assert "nan" not in done.stdout
