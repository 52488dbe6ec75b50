"""The property lane on a big suite: fixed cost with a coverage map of the base vs the full baseline.

One run generates a git repository of about 5,000 tests (100 modules of 10 functions, 50 tests per
module) whose feature branch rewrites the bodies of one module's 10 functions (same behaviour, new
expressions: about 200 mutants on the changed lines) and adds one test file. It builds the coverage
map of the base (`lanegate coverage-map build`, timed, file size shown), then runs the property lane
twice on the same head: with the map and without it. Printed: the fixed cost of each (everything
before the mutant phase: diff, plan, map key and choice, baseline run, oracle check, base tests at
head), the ratio (target: at most 0.10), the mutant phase of each, the tests each ran, and whether both
runs gave every mutant the same status and killer (they must).

    python benchmarks/scale_bench.py [--smoke] [--workers N]

Wall time by shard (1, 2 and 4 shards) is measured on the same generated repository once the sharding
work lands: `mutant_phase_seconds(timings)` is the phase a shard divides, and `main` prints it for
each mode, so the shard measurement adds its own section after `measure_coverage_map`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from lanegate.lanes.context import LaneContext
from lanegate.lanes.property import run_lane
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import PropertyLedger
from lanegate.policy import load_policy

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
TARGET_RATIO = 0.10
LINES = 10  # assignment lines per function: each has + * % (two mutants per line)


@dataclass(frozen=True, slots=True)
class Size:
    """The generated repository: modules x functions, tests per module, mutant cap."""

    modules: int
    functions: int
    tests_per_module: int
    max_mutants: int


FULL = Size(modules=100, functions=10, tests_per_module=50, max_mutants=200)
SMOKE = Size(modules=4, functions=2, tests_per_module=5, max_mutants=4)


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


def _constants(module: int, function: int, line: int) -> tuple[int, int]:
    return 3 + (module + function + line) % 7, 1 + (module * 31 + function * 7 + line) % 97


def _function(module: int, function: int, head: bool) -> str:
    body = [f"def f{function}(x):", "    y = x"]
    for line in range(LINES):
        a, b = _constants(module, function, line)
        expr = f"({b} + {a} * y) % 1000003" if head else f"(y * {a} + {b}) % 1000003"
        body.append(f"    y = {expr}")
    body.append("    return y")
    return "\n".join(body) + "\n"


def _value(module: int, function: int, x: int) -> int:
    y = x
    for line in range(LINES):
        a, b = _constants(module, function, line)
        y = (y * a + b) % 1000003
    return y


def _module(size: Size, module: int, head: bool) -> str:
    changed = head and module == 0
    return "\n\n".join(_function(module, f, changed) for f in range(size.functions))


def _tests(size: Size, module: int) -> str:
    names = ", ".join(f"f{f}" for f in range(size.functions))
    out = [f"from scale.m{module:03d} import {names}\n"]
    for t in range(size.tests_per_module):
        f = t % size.functions
        xs = [t * 3 + k for k in range(3)]
        expected = [_value(module, f, x) for x in xs]
        out.append(f"\ndef test_{t}():\n    assert [f{f}(x) for x in {xs}] == {expected}\n")
    return "".join(out)


def build_repo(root: Path, size: Size) -> Path:
    """The base on `main`, the head on `feature` (checked out)."""
    repo = root / "repo"
    (repo / "src" / "scale").mkdir(parents=True)
    (repo / "tests").mkdir()
    (repo / "pyproject.toml").write_text(
        '[tool.pytest.ini_options]\npythonpath = ["src"]\n', encoding="utf-8"
    )
    (repo / "lanegate.toml").write_text(
        f"[properties]\nmax_examples = 10\nmax_mutants = {size.max_mutants}\n"
        "[lane]\nmax_wall_seconds = 900\n",
        encoding="utf-8",
    )
    (repo / "src" / "scale" / "__init__.py").write_text("", encoding="utf-8")
    for m in range(size.modules):
        (repo / "src" / "scale" / f"m{m:03d}.py").write_text(_module(size, m, False), "utf-8")
        (repo / "tests" / f"test_m{m:03d}.py").write_text(_tests(size, m), encoding="utf-8")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "feature")
    (repo / "src" / "scale" / "m000.py").write_text(_module(size, 0, True), encoding="utf-8")
    (repo / "tests" / "test_m000_more.py").write_text(
        f"from scale.m000 import f0\n\n\ndef test_zero():\n    assert f0(0) == {_value(0, 0, 0)}\n",
        encoding="utf-8",
    )
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "feature: rewrite m000")
    return repo


def build_map(repo: Path, maps: Path) -> tuple[float, Path]:
    """Build the base's coverage map on a clean checkout of main; (seconds, map file)."""
    _git(repo, "checkout", "-q", "main")
    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "lanegate",
            "coverage-map",
            "build",
            "--repo",
            str(repo),
            "--out",
            str(maps),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    _git(repo, "checkout", "-q", "feature")
    if done.returncode != 0:
        raise SystemExit(f"coverage-map build failed: {done.stderr.strip()}")
    (path,) = maps.iterdir()
    return seconds, path


def run_property(
    repo: Path, out: Path, workers: int | None, coverage_map: Path | None
) -> tuple[PropertyLedger, dict[str, float]]:
    """One property-lane run on the checked-out head; its ledger and phase timings."""
    timings: dict[str, float] = {}
    ctx = LaneContext(repo=repo, base="main", policy=load_policy(repo), out_dir=out)
    run_lane(ctx, workers=workers, timings=timings, coverage_map=coverage_map)
    return load_file(PropertyLedger, "property", out / "property.json").value, timings


def mutant_phase_seconds(timings: dict[str, float]) -> float:
    """The mutant phase of one run (what shards divide): the lane's total less its fixed cost."""
    return timings["total"] - timings["fixed"]


def measure_coverage_map(repo: Path, root: Path, workers: int | None) -> bool:
    """Print map build, fixed cost with the map vs full, and agreement; True when the target holds."""
    build_seconds, path = build_map(repo, root / "maps")
    print(f"map build      {build_seconds:7.2f} s   map file {path.stat().st_size:,} bytes")
    runs = {}
    for label, given in (("full", None), ("coverage-map", path)):
        runs[label] = run_property(repo, root / f"out-{label}", workers, given)
    for label, (ledger, times) in runs.items():
        b = ledger.baseline
        print(
            f"{label:<13}  fixed {times['fixed']:7.2f} s  (baseline {times['baseline']:.2f} s, "
            f"base tests {times['base_suite']:.2f} s)  mutant phase "
            f"{mutant_phase_seconds(times):7.2f} s  tests run {b.selected_tests} + "
            f"{len(ledger.base_tests)} base  mode {b.mode}"
        )
    (full_ledger, full_times), (map_ledger, map_times) = runs["full"], runs["coverage-map"]
    ratio = map_times["fixed"] / full_times["fixed"]
    same = [(m.id, m.status, m.killed_by) for m in map_ledger.mutants] == [
        (m.id, m.status, m.killed_by) for m in full_ledger.mutants
    ]
    print(f"mutants        {len(full_ledger.mutants)} planted; same status and killer: {same}")
    print(
        f"fixed cost ratio (coverage map / full baseline): {ratio:.3f} "
        f"(target <= {TARGET_RATIO:.2f}: {'met' if ratio <= TARGET_RATIO else 'NOT met'})"
    )
    return same and map_ledger.baseline.mode == "coverage-map"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a tiny repository (CI)")
    parser.add_argument("--workers", type=int, default=None, help="mutant workers (default: cores)")
    args = parser.parse_args()
    size = SMOKE if args.smoke else FULL
    print(
        f"repository: {size.modules * size.tests_per_module} tests in {size.modules} files, "
        f"{size.functions} functions changed, mutant cap {size.max_mutants}; "
        f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores"
    )
    root = Path(tempfile.mkdtemp(prefix="lanegate-scale-"))
    try:
        repo = build_repo(root, size)
        ok = measure_coverage_map(repo, root, args.workers)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
