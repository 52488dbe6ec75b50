"""The property lane on a big suite: the coverage map's fixed cost, and wall time by shard count.

One run generates a git repository of about 5,000 tests (100 modules of 10 functions, 50 tests per
module) whose feature branch rewrites the bodies of one module's 10 functions (same behaviour, new
expressions: about 200 mutants on the changed lines) and adds one test file, and builds the coverage
map of the base (`lanegate coverage-map build`, timed, file size shown). Two measurements follow
(shards first), each repeated (`--repeats`, medians printed; the machine is shared, so the load
average is printed too):

1. **Coverage map vs full baseline.** The property lane on the same head with the map and without it,
   alternately, each run in a process of its own (as `lanegate property`: no git answer, parse or
   environment probe is carried from one run to the next). Printed per run: the fixed cost
   (everything before the mutant phase) split into its phases (diff, the head's and the base
   suite's standby test processes started, baseline choice and the files the runs trace, both
   selected runs started, mutant plan, canary plan, mutant workers started, the wait for the
   selected or full baseline at head, oracle check, the wait for the base tests at head, the
   rest), the mutant phase, the tests each ran; then the ratio of the fixed costs (target: at most
   0.10) and whether both modes gave every mutant the same status and killer (they must).
2. **Shards.** For N = 1, 2 and 4: `lanegate plan --property-shards N` (a process, timed), then each
   shard as its own process running `lanegate property --shard K/N --plan FILE --coverage-map MAP
   --workers 1` (the command's own argument parser and code path, in-process so that its phase
   timings can be read), pinned to one core with `os.sched_setaffinity`, then the real merge
   (`merge_lane` against the plan derived again from the diff, as `lanegate score --plan` does). As
   many shards run at once as there are cores; past that they run in waves, each shard still alone
   on its core. Printed: each shard's mutants, process wall and mutant phase; the critical path
   plan + max(shard) + merge (**measured** when every shard had its own core at the same time,
   **computed** from the measured parts when the shards ran in waves, as they would on N runners);
   the mutant-phase speed-up against N = 1 and its ratio to the 0.8 x N target; and whether the
   merged statuses and killers equal N = 1's.

Before measuring, lanegate's own package is byte-compiled where it is installed (`--no-bytecode`:
left as it is), as a pip install and the GitHub action leave it: its sandboxed test processes then
read its byte code instead of compiling its plugin's modules, about 60 ms of CPU each. Where
`PYTHONDONTWRITEBYTECODE` is set and lanegate was copied or installed without its byte code (this
machine; `git archive` of the repository), every such process pays that, and the coverage map's
four processes in a one-second phase pay it more visibly than the full baseline's.

    python benchmarks/scale_bench.py [--smoke] [--repeats R] [--only map|shards] [--workers N]
                                     [--no-bytecode]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import lanegate
from lanegate.cli import property as property_cli
from lanegate.cli.common import lane_context, repo_and_policy, shard_from_args
from lanegate.diff import classify_diff
from lanegate.lanes.context import LaneContext
from lanegate.lanes.property import run_lane
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import PropertyLedger
from lanegate.policy import load_policy
from lanegate.sandbox.bytecode import compile_package
from lanegate.sharding.ledger_file import shard_file_name, shard_from_file
from lanegate.sharding.merge import merge_lane
from lanegate.sharding.plan import derive_like, load_plan
from lanegate.sharding.slices import ShardSpec

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
TARGET_RATIO = 0.10
SHARD_COUNTS = (1, 2, 4)
# the fixed cost's consecutive phases, as the lane times them
FIXED_PHASES = (
    "diff",
    "standby",
    "choice",
    "runs_started",
    "mutant_plan",
    "canary_plan",
    "workers",
    "baseline_step",
    "oracle_check",
    "base_suite_step",
    "jobs",
)
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
        # one fixed mutant draw: every plan (N = 1, 2, 4) and run plants the same mutants, so
        # their statuses compare one to one
        f"[properties]\nmax_examples = 10\nmax_mutants = {size.max_mutants}\nmutant_draw = 1\n"
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
    """One property-lane run on the checked-out head, in a process of its own as `lanegate
    property` runs (nothing an earlier run asked of git or parsed is kept); its ledger and phase
    timings."""
    argv = [sys.executable, __file__, "--lane-run", str(repo), str(out), str(workers or 0),
            "" if coverage_map is None else str(coverage_map)]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"property lane run failed ({done.returncode}): {done.stderr[-2000:]}")
    lines = done.stdout.strip().splitlines()
    try:
        timings = json.loads(lines[-1])
    except (IndexError, ValueError):
        raise SystemExit(f"property lane run printed no timings: {done.stdout[-500:]!r}") from None
    return load_file(PropertyLedger, "property", out / "property.json").value, timings


def lane_run(repo: Path, out: Path, workers: int | None, coverage_map: Path | None) -> None:
    """The child of `run_property`: the lane in this process, its phase timings printed as JSON
    (its imports come first and are not timed, in either mode)."""
    timings: dict[str, float] = {}
    ctx = LaneContext(repo=repo, base="main", policy=load_policy(repo), out_dir=out)
    run_lane(ctx, workers=workers, timings=timings, coverage_map=coverage_map)
    print(json.dumps(timings))


def mutant_phase_seconds(timings: dict[str, float]) -> float:
    """The mutant phase of one run (what shards divide): the lane's total less its fixed cost."""
    return timings["total"] - timings["fixed"]


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.2f} (1 min) {five:.2f} (5 min)"


def _verdicts(ledger: PropertyLedger) -> dict[str, tuple[str, str | None]]:
    return {m.id: (m.status, m.killed_by) for m in ledger.mutants}


def _phases(times: dict[str, float]) -> str:
    return ", ".join(f"{name} {times.get(name, 0.0):.2f}" for name in FIXED_PHASES)


def measure_coverage_map(
    repo: Path, root: Path, workers: int | None, maps: Path, repeats: int
) -> bool:
    """Fixed cost with the map vs full, `repeats` alternating pairs; True when both modes agree on
    every mutant in every pair and the map was used."""
    ratios: list[float] = []
    ok = True
    for run in range(1, repeats + 1):
        runs = {}
        for label, given in (("full", None), ("coverage-map", maps)):
            before = _load()
            runs[label] = run_property(repo, root / f"out-{label}-{run}", workers, given)
            ledger, times = runs[label]
            b = ledger.baseline
            print(
                f"run {run} {label:<13} fixed {times['fixed']:7.2f} s  mutant phase "
                f"{mutant_phase_seconds(times):7.2f} s  tests run {b.selected_tests} + "
                f"{len(ledger.base_tests)} base  mode {b.mode}  ({before})"
            )
            print(f"      phases: {_phases(times)}")
        (full_ledger, full_times), (map_ledger, map_times) = runs["full"], runs["coverage-map"]
        ratio = map_times["fixed"] / full_times["fixed"]
        ratios.append(ratio)
        same = _verdicts(map_ledger) == _verdicts(full_ledger)
        ok = ok and same and map_ledger.baseline.mode == "coverage-map"
        print(
            f"run {run} mutants {len(full_ledger.mutants)} planted; same status and killer: {same}; "
            f"fixed cost ratio {ratio:.3f}"
        )
    middle = statistics.median(ratios)
    print(
        f"fixed cost ratio (coverage map / full baseline): {middle:.3f} median of "
        f"{len(ratios)} ({', '.join(f'{r:.3f}' for r in ratios)}) "
        f"(target <= {TARGET_RATIO:.2f}: {'met' if middle <= TARGET_RATIO else 'NOT met'})"
    )
    return ok


# ---- shards ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShardTiming:
    """One shard process: its slice size, wall seconds (as the parent saw it) and mutant phase."""

    mutants: int
    wall: float
    mutant_phase: float
    fixed: float


def shard_worker(repo: Path, out: Path, shard: str, plan: Path, maps: Path, core: int) -> None:
    """One shard job, pinned to `core`: `lanegate property --shard K/N --plan FILE --coverage-map
    MAP --workers 1` through the command's own parser and path, with the lane's timings printed."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})  # inherited by the sandbox, pytest and the mutant worker
    parser = argparse.ArgumentParser()
    property_cli.add_arguments(parser)
    args = parser.parse_args(
        ["--repo", str(repo), "--base", "main", "--out", str(out), "--shard", shard,
         "--plan", str(plan), "--coverage-map", str(maps), "--workers", "1", "--quiet"]
    )  # fmt: skip
    repo_root, policy = repo_and_policy(args)
    run = shard_from_args(args, repo_root, policy, "property")
    ctx = lane_context(args, repo_root, policy, progress=lambda event: None)
    timings: dict[str, float] = {}
    run_lane(ctx, workers=args.workers, shard=run, coverage_map=args.coverage_map, timings=timings)
    # the slice's size under a key no lane phase uses (the lane's timings have a "mutants" phase)
    print(json.dumps({"phases": timings, "slice": len(run.items) if run else 0}))


def _plan(repo: Path, out: Path, count: int) -> float:
    """`lanegate plan --property-shards N` as a process; its wall seconds."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "lanegate", "plan", "--repo", str(repo), "--base", "main",
         "--out", str(out), "--property-shards", str(count)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"lanegate plan failed: {done.stdout}{done.stderr}")
    return time.perf_counter() - started


def _wave(
    repo: Path, root: Path, plan: Path, maps: Path, count: int, indices: list[int], cores: list[int]
) -> dict[int, ShardTiming]:
    """Shards `indices` of N at once, shard i on core cores[position]; their timings."""
    procs = {}
    for position, k in enumerate(indices):
        argv = [sys.executable, __file__, "--shard-worker", str(repo), str(root / f"s{k}"),
                f"{k}/{count}", str(plan), str(maps), str(cores[position])]  # fmt: skip
        procs[k] = (
            time.perf_counter(),
            subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
        )

    def finish(k: int) -> tuple[str, str, float]:
        started, proc = procs[k]
        stdout, stderr = proc.communicate(timeout=3600)
        return stdout, stderr, time.perf_counter() - started

    with ThreadPoolExecutor(len(procs)) as waiting:  # each shard's own end, not the wave's
        ended = dict(zip(procs, waiting.map(finish, procs), strict=True))
    out = {}
    for k, (stdout, stderr, wall) in ended.items():
        code = procs[k][1].returncode
        if code != 0:
            raise SystemExit(f"shard {k}/{count} failed ({code}): {stderr[-2000:]}")
        report = json.loads(stdout.strip().splitlines()[-1])
        t = report["phases"]
        out[k] = ShardTiming(int(report["slice"]), wall, mutant_phase_seconds(t), t["fixed"])
    return out


def _merge(repo: Path, root: Path, plan: Path, count: int) -> tuple[float, PropertyLedger]:
    """The score job's merge: the plan derived again from the diff (the file checked against it),
    every shard ledger read and merged; seconds and the merged ledger."""
    started = time.perf_counter()
    policy = load_policy(repo)
    summary = classify_diff(repo, "main", policy)
    derived = derive_like(repo, summary, policy, load_plan(plan), str(plan))
    shards = [
        shard_from_file(root / f"s{k}" / shard_file_name("property", ShardSpec(k, count)))
        for k in range(1, count + 1)
    ]
    result = merge_lane(derived.property, shards, run_attempt=1)
    seconds = time.perf_counter() - started
    if result.ledger is None or not isinstance(result.ledger, PropertyLedger):
        raise SystemExit(f"merge failed: {[p.message for p in result.problems]}")
    return seconds, result.ledger


@dataclass(frozen=True, slots=True)
class ShardRound:
    """One shard count measured once."""

    count: int
    plan: float
    shards: dict[int, ShardTiming]
    merge: float
    elapsed: float  # plan + waves + merge, as they ran here
    in_waves: bool
    merged: PropertyLedger

    @property
    def critical_path(self) -> float:
        """plan + the slowest shard + merge: the lane's wall time with a runner per shard."""
        return self.plan + max(s.wall for s in self.shards.values()) + self.merge

    @property
    def mutant_phase(self) -> float:
        """The slowest shard's mutant phase."""
        return max(s.mutant_phase for s in self.shards.values())


def run_shard_count(repo: Path, root: Path, maps: Path, count: int, cores: list[int]) -> ShardRound:
    """Plan, run every shard (waves of len(cores)), merge."""
    root.mkdir(parents=True)
    started = time.perf_counter()
    plan_seconds = _plan(repo, root, count)
    plan = root / "plan.json"
    shards: dict[int, ShardTiming] = {}
    ks = list(range(1, count + 1))
    for at in range(0, count, len(cores)):
        shards.update(_wave(repo, root, plan, maps, count, ks[at : at + len(cores)], cores))
    merge_seconds, merged = _merge(repo, root, plan, count)
    elapsed = time.perf_counter() - started
    return ShardRound(
        count, plan_seconds, shards, merge_seconds, elapsed, count > len(cores), merged
    )


def measure_shards(
    repo: Path, root: Path, maps: Path, counts: tuple[int, ...], repeats: int
) -> bool:
    """Wall time by shard count, `repeats` rounds; True when every merge equals N = 1's verdicts."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    print(
        f"shards: {len(cores)} core(s) to pin to; the shards use the coverage map, one worker each"
    )
    rounds: dict[int, list[ShardRound]] = {n: [] for n in counts}
    ok = True
    for run in range(1, repeats + 1):
        print(f"shard round {run} ({_load()})")
        for count in counts:
            got = run_shard_count(repo, root / f"shards-{run}-n{count}", maps, count, cores)
            rounds[count].append(got)
            how = (
                "computed (shards ran in waves, each alone on a core)"
                if got.in_waves
                else "measured"
            )
            parts = "; ".join(
                f"{k}/{count}: {s.mutants} mutants, wall {s.wall:.2f} s, mutant phase {s.mutant_phase:.2f} s"
                for k, s in sorted(got.shards.items())
            )
            print(f"  N={count}: {parts}")
            print(
                f"  N={count}: critical path {got.critical_path:.2f} s = plan {got.plan:.2f} + "
                f"max(shard) {max(s.wall for s in got.shards.values()):.2f} + merge {got.merge:.2f} "
                f"[{how}]; elapsed here {got.elapsed:.2f} s"
            )
            same = _verdicts(got.merged) == _verdicts(rounds[counts[0]][-1].merged)
            ok = (
                ok
                and same
                and len(got.merged.mutants) == sum(s.mutants for s in got.shards.values())
            )
            print(
                f"  N={count}: merged {len(got.merged.mutants)} mutants; statuses and killers equal N={counts[0]}'s: {same}"
            )
    base = [r.mutant_phase for r in rounds[counts[0]]]
    for count in counts:
        phase = statistics.median(r.mutant_phase for r in rounds[count])
        speedups = [b / r.mutant_phase for b, r in zip(base, rounds[count], strict=True)]
        speedup = statistics.median(speedups)
        target = 0.8 * count
        critical = statistics.median(r.critical_path for r in rounds[count])
        how = "computed" if rounds[count][0].in_waves else "measured"
        print(
            f"N={count}: mutant phase {phase:.2f} s, speed-up {speedup:.2f}x median of "
            f"{len(speedups)} ({', '.join(f'{x:.2f}' for x in speedups)}), "
            f"{speedup / target:.2f} of the 0.8 x N = {target:.1f}x target; "
            f"critical path {critical:.2f} s ({how})"
        )
    return ok


def _bytecode(leave: bool) -> str:
    """Compile lanegate's package in place unless `leave`; what was done, in one line."""
    package = Path(lanegate.__file__).resolve().parent
    if leave:
        return f"lanegate's byte code: left as it is in {package} (--no-bytecode)"
    if compile_package(package):
        return f"lanegate's byte code: compiled in {package}, as an install leaves it"
    return f"lanegate's byte code: could not be written in {package}; its processes compile it"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a tiny repository (CI)")
    parser.add_argument("--workers", type=int, default=None, help="mutant workers (default: cores)")
    parser.add_argument(
        "--repeats", type=int, default=None, help="runs per measurement (default 3; smoke 1)"
    )
    parser.add_argument("--only", choices=("map", "shards"), default=None)
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="leave lanegate's package without its byte code if it has none (the worst case)",
    )
    parser.add_argument("--shard-worker", nargs=6, help=argparse.SUPPRESS)
    parser.add_argument("--lane-run", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)  # a run takes minutes: lines as they come
    if args.lane_run:
        repo, out, workers, maps = args.lane_run
        lane_run(Path(repo), Path(out), int(workers) or None, Path(maps) if maps else None)
        return 0
    if args.shard_worker:
        repo, out, shard, plan, maps, core = args.shard_worker
        shard_worker(Path(repo), Path(out), shard, Path(plan), Path(maps), int(core))
        return 0
    size = SMOKE if args.smoke else FULL
    repeats = args.repeats or (1 if args.smoke else 3)
    print(_bytecode(args.no_bytecode))
    print(
        f"repository: {size.modules * size.tests_per_module} tests in {size.modules} files, "
        f"{size.functions} functions changed, mutant cap {size.max_mutants}; "
        f"{_load()}, {os.cpu_count()} cores"
    )
    root = Path(tempfile.mkdtemp(prefix="lanegate-scale-"))
    try:
        repo = build_repo(root, size)
        build_seconds, maps = build_map(repo, root / "maps")
        print(f"map build      {build_seconds:7.2f} s   map file {maps.stat().st_size:,} bytes")
        ok = True
        if args.only in (None, "shards"):
            ok = measure_shards(repo, root, maps, SHARD_COUNTS, repeats) and ok
        if args.only in (None, "map"):
            ok = measure_coverage_map(repo, root, args.workers, maps, repeats) and ok
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{_load()} after")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
