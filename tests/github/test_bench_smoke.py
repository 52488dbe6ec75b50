"""The act overhead benchmark runs (--smoke: one lane job with the real install) and prints numbers."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_act_overhead_smoke_prints_its_numbers() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "act_overhead.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=400,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "act exit 0" in done.stdout, done.stdout
    assert "lint      lanegate install" in done.stdout and "nan" not in done.stdout, done.stdout
    assert "worst lanegate overhead per lane job" in done.stdout


def test_scale_bench_smoke_prints_its_numbers() -> None:
    """benchmarks/scale_bench.py --smoke: map built, both modes run, the same mutant verdicts; 1, 2
    and 4 shards planned, run pinned, merged to N=1's verdicts."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "scale_bench.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "lanegate's byte code: compiled in " in out, out
    assert "map build" in out and "map file" in out, out
    assert "mode full" in out and "mode coverage-map" in out, out
    assert "same status and killer: True" in out, out
    assert "fixed cost ratio (coverage map / full baseline): " in out, out
    assert "phases: diff " in out and "base_suite_step " in out, out
    for count in (1, 2, 4):
        assert f"N={count}: merged " in out, out
        assert f"N={count}: mutant phase " in out, out
    assert out.count("statuses and killers equal N=1's: True") == 3, out
    assert "[measured]" in out and "[computed (shards ran in waves" in out, out
    assert "of the 0.8 x N = 1.6x target" in out, out
    assert "nan" not in out, out
