"""The sandbox benchmark runs at its smoke size and prints every number it promises."""

from __future__ import annotations

from tests.benchsmoke import run_smoke


def test_sandbox_bench_smoke_prints_its_ratios() -> None:
    out = run_smoke("sandbox_bench.py")
    for label in ("start alone (true)", "pytest whole suite", "property", "fixture", "flake"):
        assert label in out, out
    assert "worst per-process overhead against the target" in out
    assert "nan" not in out
