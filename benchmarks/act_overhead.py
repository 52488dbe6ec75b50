"""lanegate's own overhead per lane job under act: install (from a warm pip cache) + run.

Runs a workflow with one job per lane, each calling lanegate's composite action the way lane-b.yml
does, with the REAL install path (a fresh venv under RUNNER_TEMP, runtime dependencies through pip, the
action's src/ as a path entry). The target pull request changes no test, so the lanes select no test to
run: what is timed is lanegate itself. Baseline: the same act job running `python3 -c pass` instead
of lanegate (act's own cost per job). Target: under 10 s per lane job.

    python benchmarks/act_overhead.py [--smoke] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.act import target  # noqa: E402
from tests.act.harness import pull_request_event, run_act, ship_lanegate  # noqa: E402

TARGET_SECONDS = 10.0
STEP = re.compile(
    r"\[[^\]]*/(?P<job>[\w-]+)\s*\]\s+(?:✅  Success|❌  Failure) - Main (?P<step>.+?) \[(?P<dur>[\dhmsµ.]+)\]"
)
GO_DURATION = re.compile(
    r"(?:(?P<h>\d+)h)?(?:(?P<m>\d+)m(?!s))?(?:(?P<v>[\d.]+)(?P<unit>ms|µs|s))?$"
)


def _lane_job(lane: str) -> str:
    return f"""  {lane}:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - id: lane
        uses: lanegate/lanegate@v1
        with:
          lane: {lane}
          ledgers: ${{{{ runner.temp }}}}/ledgers
          install: {"pytest hypothesis" if lane != "lint" else ""}
"""


def workflow(lanes: list[str]) -> str:
    jobs = [_lane_job(lane) for lane in lanes]
    jobs.append(
        """  baseline:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
        with:
          persist-credentials: false
      - name: Bare interpreter start
        shell: bash
        run: python3 -c pass
"""
    )
    return "on: pull_request\npermissions: {}\njobs:\n" + "".join(jobs)


def _seconds(duration: str) -> float:
    """A Go duration as act prints it (`850.2ms`, `3.2s`, `1m12.6s`) in seconds."""
    match = GO_DURATION.match(duration)
    if match is None:
        return float("nan")
    value = float(match["v"] or 0) / {"s": 1.0, "ms": 1e3, "µs": 1e6, None: 1.0}[match["unit"]]
    return int(match["h"] or 0) * 3600 + int(match["m"] or 0) * 60 + value


def step_times(log: str) -> dict[tuple[str, str], float]:
    times: dict[tuple[str, str], float] = {}
    for match in STEP.finditer(log):
        times[(match["job"], match["step"].strip())] = _seconds(match["dur"])
    return times


OWN = re.compile(
    r"/(?P<job>[\w-]+)\s*\]\s+\| lanegate: lanegate itself installed in (?P<s>[\d.]+) s"
)
DEPS = re.compile(
    r"/(?P<job>[\w-]+)\s*\]\s+\| lanegate: test dependencies installed in (?P<s>[\d.]+) s"
)


CPU = re.compile(
    r"/(?P<job>[\w-]+)\s*\]\s+\| lanegate: pip for lanegate: [\d.]+ s wall, (?P<u>[\d.]+) s user \+ (?P<s>[\d.]+) s"
)


def printed(pattern: re.Pattern[str], log: str) -> dict[str, float]:
    return {m["job"]: float(m["s"]) for m in pattern.finditer(log)}


def pip_cache_dir() -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True, check=False
    )
    return done.stdout.strip() or str(Path.home() / ".cache" / "pip")


def measure(lanes: list[str], work: Path) -> tuple[dict[tuple[str, str], float], float, int, str]:
    lanegate = ship_lanegate(work / "lanegate")
    repo, base = target.make_base(work / "repo")
    repo.write(".github/workflows/bench.yml", workflow(lanes))
    base = repo.commit("bench workflow")
    head = target.add_head(repo, {"README.md": "docs only: no test changes\n"}, "docs")
    env = {"PIP_CACHE_DIR": pip_cache_dir(), "LANEGATE_PYTHON": ""}
    started = time.monotonic()
    result = run_act(
        repo.path,
        ".github/workflows/bench.yml",
        pull_request_event(repo.path, base, head),
        work / "act",
        lanegate=lanegate,
        env=env,
        timeout=600,
        concurrent_jobs=1,  # one job at a time: each job's numbers are its own
    )
    if os.environ.get("LANEGATE_BENCH_LOG"):
        Path(os.environ["LANEGATE_BENCH_LOG"]).write_text(result.log, encoding="utf-8")
    return step_times(result.log), time.monotonic() - started, result.returncode, result.log


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one lane job (lint), one run")
    parser.add_argument("--repeat", type=int, default=1, help="measured runs (default 1)")
    args = parser.parse_args()
    # --smoke: the lint lane, which needs no test dependency installed next to lanegate
    lanes = ["lint"] if args.smoke else ["property", "fixture", "flake", "lint"]
    os.environ.pop("GITHUB_ACTIONS", None)
    worst = 0.0
    for run in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="lanegate-act-bench-") as tmp:
            times, wall, code, log = measure(lanes, Path(tmp))
        own, deps = printed(OWN, log), printed(DEPS, log)
        cpu = {m["job"]: float(m["u"]) + float(m["s"]) for m in CPU.finditer(log)}
        base = times.get(("baseline", "Bare interpreter start"), 0.0)
        print(f"run {run + 1}: act exit {code}, wall {wall:.1f} s for {len(lanes) + 1} jobs")
        print(f"  baseline (act job running python3 -c pass): {base:.2f} s")
        for lane in lanes:
            step = times.get((lane, "Install lanegate from the action's files"), float("nan"))
            install = own.get(lane, float("nan"))
            test_deps = deps.get(lane, 0.0)
            ran = times.get((lane, f"Run lanegate {lane}"), float("nan"))
            total = install + ran
            worst = max(worst, total)
            ratio = total / base if base else float("nan")
            print(
                f"  {lane:9s} lanegate install {install:5.2f} s + run {ran:5.2f} s = {total:5.2f} s "
                f"({ratio:.0f}x baseline; target < {TARGET_SECONDS:.0f} s: "
                f"{'ok' if total < TARGET_SECONDS else 'OVER'}); the tests' own pytest+hypothesis "
                f"install {test_deps:.2f} s (install step {step:.2f} s; pip CPU for lanegate "
                f"{cpu.get(lane, float('nan')):.2f} s)"
            )
    print(f"worst lanegate overhead per lane job: {worst:.2f} s (target {TARGET_SECONDS:.0f} s)")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
