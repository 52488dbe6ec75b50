"""Sharding the property lane's mutant phase: 1 shard vs 2 shards run as separate processes.

One run generates a git repository whose feature branch adds a module of small functions (every line
a changed line, so there are many mutants) and a property test per function. It plans the lane once
per shard count (`lanegate.sharding.plan.build_plan`, as the `plan` job does), then runs the property
lane's shards as separate processes, one mutant worker (one core) each, the way the matrix jobs run on
their own runners: N = 1 is one process, N = 2 is two processes at the same time. Printed: each
shard's mutants and mutant-phase seconds, the mutant-phase speed-up (N = 1's phase over the slower
N = 2 shard's) and the whole-lane wall speed-up, whether the merged N = 2 ledger has the statuses of
the N = 1 ledger, and the load average before and after (the machine is shared).

    python benchmarks/shard_bench.py [--smoke] [--functions N]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lanegate.diff import classify_diff
from lanegate.lanes.context import LaneContext
from lanegate.lanes.property import plant, run_lane
from lanegate.ledgers.models import PropertyLedger
from lanegate.policy import load_policy
from lanegate.sharding.ledger_file import shard_file_name, shard_from_file
from lanegate.sharding.merge import merge_lane
from lanegate.sharding.plan import build_plan
from lanegate.sharding.slices import ShardRun, ShardSpec

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
TARGET = 0.8 * 2  # >= 0.8 x N speed-up at N = 2
# every shard worker plans alone, as a shard job would with the plan job's draw: one fixed draw
BENCH_DRAW = 1


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


def _function(i: int) -> str:
    return (
        f"def shift_{i}(x: int) -> int:\n"
        f'    """Move x towards {i}."""\n'
        f"    if x > {i}:\n"
        f"        return x - {i + 1}\n"
        f"    return x + {i + 2}\n\n\n"
    )


def _test(i: int, examples: int) -> str:
    return (
        f"@settings(max_examples={examples}, database=None, deadline=None)\n"
        "@given(st.integers(-500, 500), st.integers(-500, 500))\n"
        f"def test_shift_{i}_keeps_order(a, b):\n"
        f"    monotonic(lambda x: gen.shift_{i}(x) + (x > {i}) * {2 * i + 3}, min(a, b), max(a, b))\n"
        f"    assert gen.shift_{i}({i + 1}) == 0 and gen.shift_{i}({i}) == {2 * i + 2}\n\n\n"
    )


def build_repo(root: Path, functions: int, examples: int) -> Path:
    """Base: an empty module and no tests; feature: `functions` functions and a property each."""
    repo = root / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "lanegate.toml").write_text(
        f"[properties]\nmax_mutants = {8 * functions}\nmax_examples = {examples}\n", "utf-8"
    )
    (repo / "pyproject.toml").write_text(
        '[project]\nname = "gen"\nversion = "0"\n\n[tool.pytest.ini_options]\n'
        'pythonpath = ["."]\ntestpaths = ["tests"]\n',
        "utf-8",
    )
    (repo / "gen.py").write_text('"""Generated functions."""\n', "utf-8")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "feature")
    body = "".join(_function(i) for i in range(functions))
    (repo / "gen.py").write_text('"""Generated functions."""\n\n\n' + body, "utf-8")
    tests = "".join(_test(i, examples) for i in range(functions))
    (repo / "tests" / "test_gen.py").write_text(
        "from hypothesis import given, settings\nfrom hypothesis import strategies as st\n\n"
        "import gen\nfrom lanegate.oracles import monotonic\n\n\n" + tests,
        "utf-8",
    )
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "feature")
    return repo


def worker(repo: Path, out: Path, spec: ShardSpec) -> None:
    """One shard job: plan, take this shard's slice, run the lane with one mutant worker."""
    policy = load_policy(repo)
    summary = classify_diff(repo, "main", policy)
    plan = build_plan(
        repo, summary, policy, property_shards=spec.count, flake_shards=1, draw=BENCH_DRAW
    )
    shard = ShardRun(spec, plan.property.digest, plan.property.slice(spec), plan.mutant_draw)
    ctx = LaneContext(repo=repo, base="main", policy=policy, out_dir=out)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    run_lane(ctx, workers=1, timings=timings, shard=shard)
    timings["process_lane_wall"] = time.perf_counter() - started
    print(json.dumps({"mutants": len(shard.items), **timings}))


def _start(repo: Path, out: Path, spec: ShardSpec) -> subprocess.Popen[str]:
    argv = [sys.executable, __file__, "--worker", str(repo), str(out), str(spec)]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def run_shards(repo: Path, root: Path, count: int) -> tuple[float, list[dict[str, float]]]:
    """All shards of a `count`-shard plan at once, one process each; wall seconds and timings."""
    started = time.perf_counter()
    procs = [
        _start(repo, root / f"n{count}-s{k}", ShardSpec(k, count)) for k in range(1, count + 1)
    ]
    results = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=3600)
        if proc.returncode != 0:
            raise SystemExit(f"shard worker failed ({proc.returncode}): {stderr[-2000:]}")
        results.append(json.loads(stdout.strip().splitlines()[-1]))
    return time.perf_counter() - started, results


def _merged(repo: Path, root: Path, count: int) -> PropertyLedger:
    policy = load_policy(repo)
    summary = classify_diff(repo, "main", policy)
    plan = build_plan(repo, summary, policy, property_shards=count, flake_shards=1, draw=BENCH_DRAW)
    shards = [
        shard_from_file(root / f"n{count}-s{k}" / shard_file_name("property", ShardSpec(k, count)))
        for k in range(1, count + 1)
    ]
    result = merge_lane(plan.property, shards, run_attempt=1)
    if result.ledger is None or not isinstance(result.ledger, PropertyLedger):
        raise SystemExit(f"merge failed: {[p.message for p in result.problems]}")
    return result.ledger


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f} (1 min), {five:.2f} (5 min) on {os.cpu_count()} cores"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="3 functions, 10 examples")
    parser.add_argument("--functions", type=int, default=24)
    parser.add_argument("--worker", nargs=3, metavar=("REPO", "OUT", "K/N"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    plant.MAX_PER_LINE = 1_000  # every candidate on the changed lines: many mutants per function
    if args.worker:
        index, count = (int(x) for x in args.worker[2].split("/"))
        worker(Path(args.worker[0]), Path(args.worker[1]), ShardSpec(index, count))
        return 0
    functions, examples = (3, 10) if args.smoke else (args.functions, 100)
    root = Path(tempfile.mkdtemp(prefix="lanegate-shard-bench-"))
    try:
        repo = build_repo(root, functions, examples)
        print(f"load before: {_load()}")
        wall_1, (alone,) = run_shards(repo, root, 1)
        wall_2, pair = run_shards(repo, root, 2)
        print(f"load after:  {_load()}")
        print(f"generated: {functions} functions, {alone['mutants']} mutants, one worker per shard")
        print(
            f"N=1: {alone['mutants']} mutants, mutant phase {alone['mutants_wall']:.2f} s, "
            f"baseline {alone['baseline']:.2f} s, lane {wall_1:.2f} s wall"
        )
        for k, shard in enumerate(pair, start=1):
            print(
                f"N=2 shard {k}/2: {shard['mutants']} mutants, mutant phase "
                f"{shard['mutants_wall']:.2f} s, baseline {shard['baseline']:.2f} s, "
                f"lane {shard['process_lane_wall']:.2f} s"
            )
        slowest = max(s["mutants_wall"] for s in pair)
        speedup = alone["mutants_wall"] / slowest if slowest else 0.0
        print(
            f"mutant-phase speed-up at N=2: {speedup:.2f}x (target >= {TARGET:.1f}x); "
            f"whole-lane wall speed-up: {wall_1 / wall_2:.2f}x ({wall_1:.2f} s vs {wall_2:.2f} s)"
        )
        single = shard_from_file(root / "n1-s1" / shard_file_name("property", ShardSpec(1, 1)))
        merged = _merged(repo, root, 2)
        before = {m.id: m.status for m in single.ledger.mutants}  # type: ignore[union-attr]
        after = {m.id: m.status for m in merged.mutants}
        flips = sorted(k for k in before if before[k] != after.get(k)) + sorted(
            set(after) - set(before)
        )
        print(f"merged N=2 ledger vs N=1: {len(after)} mutants, status differences: {len(flips)}")
        return 0 if not flips and len(after) == len(before) else 1
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
