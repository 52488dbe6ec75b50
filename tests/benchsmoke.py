"""One benchmark script run at its smoke size, as lanegate's own tests run each: a real process from
the checkout's root, its exit checked (with everything it printed when it failed), its output
returned for the test's own checks of the numbers it promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_smoke(script: str, *args: str, timeout: float = 600) -> str:
    """stdout of `python benchmarks/<script> --smoke ARGS...`, which must exit 0 within `timeout`."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--smoke", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout
