"""Sandbox cost: the same process and the same lanes with and without the bubblewrap sandbox, in one run.

Builds a small git repository (a module with `--functions` functions, one test file per function, a
head commit that changes one function and adds a property test), then measures:
- per process: `python -m pytest -q` of the whole suite, plain against sandboxed (median of `--repeat`
  alternating runs), and the sandbox's start alone (`true` inside against `true`);
- per lane: the property, fixture and flake lanes run on the head with `sandboxed=False` and `True`
  (median of `--lane-repeat` runs each), with the lane's number of sandboxed processes.
Target (issue 11): at most 0.3 s or 10% per lane process, whichever is larger.

Usage: python benchmarks/sandbox_bench.py [--smoke] [--functions N] [--repeat N] [--lane-repeat N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from lanegate.authorship import Authorship
from lanegate.lanes.context import LaneContext
from lanegate.ledgers.models import AuthorKind
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
POLICY = """[lane]
name = "bench"
max_wall_seconds = 120

[properties]
module = "lanegate.oracles"
max_mutants = 6
max_examples = 20
seed = 1

[fixtures]
allow_none = true
"""


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


def _function(i: int, changed: bool) -> str:
    step = 3 if changed else 2
    return f"def scale_{i}(x: int) -> int:\n    return x * {step} + {i}\n\n\n"


def build_repo(root: Path, functions: int) -> Path:
    """A base commit on main and a head commit (one function changed, one property added)."""
    repo = root / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "lanegate.toml").write_text(POLICY)
    (repo / "calc.py").write_text("".join(_function(i, False) for i in range(functions)))
    for i in range(functions):
        (repo / "tests" / f"test_scale_{i}.py").write_text(
            f"from calc import scale_{i}\n\n\ndef test_scale_{i}() -> None:\n"
            f"    assert scale_{i}(1) - scale_{i}(0) > 0\n"
        )
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "head")
    source = (repo / "calc.py").read_text()
    (repo / "calc.py").write_text(source.replace(_function(0, False), _function(0, True)))
    (repo / "tests" / "test_scale_property.py").write_text(
        "from hypothesis import given, strategies as st\n\n"
        "from calc import scale_0\nfrom lanegate.oracles import monotonic\n\n\n"
        "@given(st.integers(-1000, 1000), st.integers(-1000, 1000))\n"
        "def test_scale_0_is_monotonic(a: int, b: int) -> None:\n"
        "    monotonic(scale_0, a, b)\n"
    )
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "head")
    return repo


def _median_pair(
    plain: Callable[[], None], boxed: Callable[[], None], repeat: int
) -> tuple[float, float]:
    """Median seconds of each, measured alternately so machine load drifts hit both alike."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(repeat):
        for sink, job in ((a, plain), (b, boxed)):
            started = time.perf_counter()
            job()
            sink.append(time.perf_counter() - started)
    return statistics.median(a), statistics.median(b)


def per_process(repo: Path, repeat: int) -> None:
    sandbox = open_sandbox(repo)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    suite = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]

    def run(argv: list[str], environ: dict[str, str]) -> Callable[[], None]:
        def job() -> None:
            done = subprocess.run(argv, cwd=repo, env=environ, capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"benchmark command failed: {argv[:4]}: {done.stdout[-400:]}")

        return job

    boxed_suite = sandbox.command(suite, env=env, cwd=repo)
    boxed_true = sandbox.command(["true"], env=env, cwd=repo)
    print(f"per process ({repeat} alternating runs each, median):")
    for label, plain, boxed in (
        ("start alone (true)", run(["true"], env), run(boxed_true.argv, boxed_true.env)),
        ("pytest whole suite", run(suite, env), run(boxed_suite.argv, boxed_suite.env)),
    ):
        a, b = _median_pair(plain, boxed, repeat)
        print(
            f"  {label:<20} plain {a:6.3f} s  sandboxed {b:6.3f} s  "
            f"overhead {b - a:+6.3f} s  ratio {b / a:5.2f}x"
        )
    sandbox.close()


def per_lane(repo: Path, repeat: int) -> None:
    from lanegate.lanes import fixture, flake, property

    policy = load_policy(repo)
    print(f"per lane ({repeat} alternating runs each, median):")
    worst = 0.0
    for name, module, processes in (
        ("property", property, 3),  # baseline + 2 mutant workers
        ("fixture", fixture, 0),
        ("flake", flake, 3),  # min_replays
    ):
        outs = Path(tempfile.mkdtemp(prefix="lanegate-sandbox-bench-"))

        def lane(sandboxed: bool, lane_module: object = module, out: Path = outs) -> None:
            ctx = LaneContext(
                repo=repo,
                base="main",
                policy=policy,
                out_dir=out / ("boxed" if sandboxed else "plain"),
                now=datetime.now(UTC),
                authorship=Authorship(AuthorKind.HUMAN, "bench"),
                sandboxed=sandboxed,
            )
            lane_module.run_lane(ctx)  # type: ignore[attr-defined]

        a, b = _median_pair(lambda: lane(False), lambda: lane(True), repeat)
        shutil.rmtree(outs, ignore_errors=True)
        per = (b - a) / processes if processes else b - a
        allowed = max(0.3, 0.1 * (a / processes if processes else a))
        worst = max(worst, per / allowed)
        print(
            f"  {name:<9} plain {a:6.2f} s  sandboxed {b:6.2f} s  ratio {b / a:5.2f}x  "
            f"overhead {b - a:+5.2f} s over {processes} process(es): {per:+5.3f} s each "
            f"(allowed {allowed:.2f} s)"
        )
    print(f"worst per-process overhead against the target: {worst:.2f} of the allowance")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny sizes for CI")
    parser.add_argument("--functions", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=None)
    parser.add_argument("--lane-repeat", type=int, default=None)
    args = parser.parse_args()
    functions = args.functions or (4 if args.smoke else 40)
    repeat = args.repeat or (1 if args.smoke else 9)  # smoke: every measurement runs, once
    lane_repeat = args.lane_repeat or (1 if args.smoke else 3)
    root = Path(tempfile.mkdtemp(prefix="lanegate-sandbox-bench-"))
    try:
        repo = build_repo(root, functions)
        print(
            f"repository: {functions} functions, {functions + 1} test files; {os.cpu_count()} cores"
        )
        per_process(repo, repeat)
        per_lane(repo, lane_repeat)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
