"""benchmarks/shard_bench.py --smoke runs 1 and 2 property shards as processes and prints its ratios."""

from __future__ import annotations

from tests.benchsmoke import run_smoke


def test_shard_bench_smoke_prints_its_speed_up_and_merges_without_flips() -> None:
    out = run_smoke("shard_bench.py")
    for label in ("load before:", "N=1:", "N=2 shard 1/2:", "N=2 shard 2/2:", "speed-up at N=2"):
        assert label in out, out
    assert "status differences: 0" in out
    assert "nan" not in out
