"""`lanegate candidates` against N separate `lanegate run`s: wall and CPU, and equal verdicts.

The bundled demo's repository gets eight candidate heads off one base, a mix of honest, wrong and
flaky ones: the demo's honest head, its agent head (a flaky test, a rewritten fixture, a tautology,
a forgiving workflow), a decoder that drops a letter (the base's property fails), a test that fails
one run in two, a second honest property, a comment-only change, a fixture input edited without its
lockfile, and a test that depends on the clock's parity. For each N (default 1, 4 and 8) the first N
heads are judged twice: once as N separate `lanegate run --base main` processes, one after the other
(a checkout of each head in turn), and once as one `lanegate candidates --base main` process.

Cost: wall seconds, and CPU seconds of every process either way (this process is a child subreaper,
so that the sandboxes' processes, orphaned to it when bubblewrap's outer process exits, are reaped by
it and their CPU counted in RUSAGE_CHILDREN, as `flake_bench.py` counts them). Printed per N: both
walls, both CPUs, the ratios batch / separate, and whether every verdict is equal. The flaky heads'
verdicts are statistical (a flake caught in one run may escape the next): a differing verdict is
printed with its head. Target: <= 0.6x at N = 4 on 2 cores.

    python benchmarks/candidates_bench.py [--sizes 1,4,8] [--jobs J] [--keep DIR] [--smoke]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from lanegate.demo.bundle import load_shipped
from lanegate.demo.scenario import build_repo
from lanegate.run import children

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
SIZES = (1, 4, 8)
TARGET = 0.6
CODEC = "demo_lib/codec.py"
LANEGATE = [sys.executable, "-m", "lanegate"]
_PROPERTY = """from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip


@settings(database=None)
@given(st.text(alphabet="{alphabet}", max_size=12))
def test_round_trip_{name}(text):
    {extra}round_trip(encode, decode, text)
"""


@dataclass(frozen=True, slots=True)
class Cost:
    """Wall and CPU seconds of one way of judging N heads, and each head's verdict."""

    wall: float
    cpu: float
    verdicts: dict[str, str]


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
    )
    return done.stdout


def _branch(repo: Path, name: str, files: dict[str, str]) -> None:
    _git(repo, "checkout", "-q", "-b", name, "main")
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", name)
    _git(repo, "checkout", "-q", "main")


def build(repo: Path) -> list[str]:
    """The demo repository with the eight heads, in the order the sizes take them."""
    build_repo(load_shipped(), repo)
    codec = (repo / CODEC).read_text(encoding="utf-8")
    words = (repo / "tests/fixtures/words.in").read_text(encoding="utf-8")

    def prop(name: str, alphabet: str, extra: str = "") -> dict[str, str]:
        text = _PROPERTY.format(name=name, alphabet=alphabet, extra=extra)
        return {f"tests/test_codec_{name}.py": text}

    _branch(repo, "wrong", {CODEC: codec.replace("char * int(count)", "char * (int(count) - 1)")})
    _branch(repo, "flaky", prop("flaky", "ab", "assert __import__('random').random() < 0.5\n    "))
    _branch(repo, "honest-2", prop("pairs", "xy"))
    _branch(
        repo,
        "comment",
        {
            CODEC: codec.replace(
                '    out: list[str] = []\n    count = ""',
                '    out: list[str] = []  # decoded runs\n    count = ""',
            )
        },
    )
    _branch(repo, "wrong-2", {"tests/fixtures/words.in": words + "zzz\n"})
    _branch(
        repo,
        "flaky-2",
        prop("clock", "abc", "assert __import__('time').time_ns() // 1000 % 2\n    "),
    )
    return ["honest", "agent", "wrong", "flaky", "honest-2", "comment", "wrong-2", "flaky-2"]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _measured(argv: list[str], cwd: Path) -> tuple[float, float, int]:
    cpu, started = _cpu(), time.monotonic()
    done = subprocess.run(
        argv, cwd=cwd, env={**os.environ, **GIT_ENV}, capture_output=True, text=True, check=False
    )
    wall = time.monotonic() - started
    children.reap_exited()  # the sandboxes' orphans: their CPU joins RUSAGE_CHILDREN now
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv[2:4])}: exited {done.returncode}: {done.stderr[-2000:]}")
    return wall, _cpu() - cpu, done.returncode


def separate(repo: Path, heads: list[str], out: Path) -> Cost:
    """N `lanegate run`s, one after the other, each on a checkout of its head."""
    wall = cpu = 0.0
    verdicts = {}
    for head in heads:
        _git(repo, "checkout", "-q", head)
        try:
            w, c, _ = _measured(
                [*LANEGATE, "run", "--base", "main", "--quiet", "--out", str(out / head)], repo
            )
        finally:
            _git(repo, "checkout", "-q", "main")
        wall, cpu = wall + w, cpu + c
        verdicts[head] = json.loads((out / head / "score-report.json").read_text())["verdict"]
    return Cost(wall, cpu, verdicts)


def batch(repo: Path, heads: list[str], out: Path, jobs: int | None) -> Cost:
    """One `lanegate candidates` over the same heads."""
    extra = [] if jobs is None else ["--jobs", str(jobs)]
    argv = [*LANEGATE, "candidates", "--base", "main", "--out", str(out), *extra, *heads]
    wall, cpu, _ = _measured(argv, repo)
    report = json.loads((out / "candidates.json").read_text())
    return Cost(wall, cpu, {c["ref"]: c["verdict"] for c in report["candidates"]})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--jobs", type=int, default=None, help="--jobs of the batch")
    parser.add_argument("--keep", type=Path, default=None, help="build in DIR and keep it")
    parser.add_argument("--smoke", action="store_true", help="N = 1 only (what CI runs)")
    args = parser.parse_args(argv)
    sizes = [1] if args.smoke else [int(s) for s in args.sizes.split(",") if s]
    if not sizes or any(not 1 <= n <= 8 for n in sizes):
        parser.error("--sizes: integers from 1 to 8")
    children.become_subreaper()
    root = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="lanegate-cb-"))
    try:
        heads = build(root / "repo")
        print(f"demo repository, {len(heads)} heads; {os.cpu_count()} cores, load {_load()}")
        print(
            f"{'N':>2} {'sep wall':>9} {'batch wall':>10} {'ratio':>6} {'sep CPU':>8} "
            f"{'batch CPU':>9} {'ratio':>6}  verdicts"
        )
        worst = 0.0
        for n in sizes:
            chosen = heads[:n]
            alone = separate(root / "repo", chosen, root / f"separate-{n}")
            together = batch(root / "repo", chosen, root / f"batch-{n}", args.jobs)
            differ = [h for h in chosen if alone.verdicts[h] != together.verdicts[h]]
            wall_ratio, cpu_ratio = together.wall / alone.wall, together.cpu / alone.cpu
            if n == 4:
                worst = max(wall_ratio, cpu_ratio)
            same = (
                "all equal"
                if not differ
                else "differ: "
                + ", ".join(
                    f"{h} ({alone.verdicts[h]} alone, {together.verdicts[h]} in the batch)"
                    for h in differ
                )
            )
            print(
                f"{n:>2} {alone.wall:>8.1f}s {together.wall:>9.1f}s {wall_ratio:>5.2f}x "
                f"{alone.cpu:>7.1f}s {together.cpu:>8.1f}s {cpu_ratio:>5.2f}x  {same}"
            )
        if 4 in sizes:
            print(f"target: <= {TARGET}x wall and CPU at N = 4: {worst:.2f}x")
        print(f"load after: {_load()} (a shared machine: ratios move with the others' work)")
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


def _load() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "unknown"
    return f"{one:.1f}/{five:.1f}"


if __name__ == "__main__":
    raise SystemExit(main())
