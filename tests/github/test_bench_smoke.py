"""The act overhead benchmark runs (--smoke: one lane job with the real install) and prints numbers."""

from __future__ import annotations

from tests.benchsmoke import run_smoke


def test_act_overhead_smoke_prints_its_numbers() -> None:
    out = run_smoke("act_overhead.py", timeout=400)
    assert "act exit 0" in out, out
    assert "lint      lanegate install" in out and "nan" not in out, out
    assert "worst lanegate overhead per lane job" in out


def test_scale_bench_smoke_prints_its_numbers() -> None:
    """benchmarks/scale_bench.py --smoke: map built, both modes run, the same mutant verdicts; 1, 2
    and 4 shards planned, run pinned, merged to N=1's verdicts."""
    out = run_smoke("scale_bench.py")
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
