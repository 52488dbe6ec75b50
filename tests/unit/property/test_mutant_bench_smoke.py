"""benchmarks/mutant_bench.py --smoke runs lanegate twice and mutmut 3 once, and fails loudly."""

from __future__ import annotations

from tests.benchsmoke import run_smoke


def test_mutant_bench_smoke() -> None:
    out = run_smoke("mutant_bench.py", timeout=900)
    assert "status flips between two identical runs: 0" in out
    assert "errors: 0" in out
    assert "killed by the honest suite: 0" in out
    assert "mutmut 3:" in out and "mutants/s" in out
