"""The scoring benchmark runs at its smoke size and prints its ratios."""

from __future__ import annotations

import pytest
from benchmarks import scoring_bench


def test_scoring_bench_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    assert scoring_bench.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    assert "json.loads (baseline)" in out and "strict load" in out and "x" in out
