"""benchmarks/candidates_bench.py --smoke: one candidate judged alone and as a batch, both costs
printed, the verdicts equal."""

from __future__ import annotations

from tests.benchsmoke import run_smoke


def test_candidates_bench_smoke_prints_both_costs_and_equal_verdicts() -> None:
    out = run_smoke("candidates_bench.py")
    rows = [line.split() for line in out.splitlines() if line.strip().startswith("1 ")]
    assert len(rows) == 1, out
    assert rows[0][-2:] == ["all", "equal"], out
    assert "load after:" in out
