"""benchmarks/real_projects.py --smoke: more-itertools from the package index, three heads judged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "real_projects.py"


def test_real_projects_smoke() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--smoke"], capture_output=True, text=True, timeout=1200
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "== more-itertools 10.5.0" in done.stdout
    for head in ("honest", "wrong-bug", "wrong-oracle"):
        assert f"  {head}" in done.stdout
    assert "every verdict as expected" in done.stdout
