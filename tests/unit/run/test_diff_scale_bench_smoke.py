"""The diff-scale benchmark at a smoke size: `lanegate run` on diffs adding 100 and 1,000 files."""

from __future__ import annotations

import pytest
from benchmarks import diff_scale_bench


def test_diff_scale_bench_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    assert diff_scale_bench.main(["--sizes", "100,1000"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.strip().startswith(("100 ", "1000 "))]
    assert [row[0] for row in rows[-2:]] == ["100", "1000"]
    assert "fixture=pass" in out and "lint=pass" in out and "target: 1000 added files" in out
