"""`lanegate run` on diffs that add many files: lanegate's own CPU, and how it grows with the diff.

For each size N (default 1,000, 10,000 and 100,000) one git repository is generated: the base holds
a one-function package and its test; the head adds N files, one in 500 a test module of one test
(`tests/gen/test_gNNNNNN.py`), the rest small data files in folders of a thousand
(`data/dNNN/fNNNNNN.txt`), as vendored folders, generated clients and data sets do. `lanegate run
--base main --quiet` runs on it as a process of its own, and the line it ends with (`took: ...
(CPU: lanegate X s, tests Y s)`) gives lanegate's own CPU (its process and its lane processes, not
the tests' processes) apart from the tests' CPU, which grows with the number of test modules pytest
collects and runs, not with lanegate.

Printed per size: added files, test modules, wall seconds, lanegate's CPU, the tests' CPU, each lane's
verdict, and the growth factor of lanegate's CPU against the size before, divided by the size's
growth (1.0 is linear; a quadratic step shows about 10 on a tenfold step). Target: 100,000 added files
under 60 s of lanegate's own CPU, growth at most linear.

    python benchmarks/diff_scale_bench.py [--sizes 1000,10000,100000] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
TEST_EVERY = 500  # one added file in this many is a test module
SIZES = (1_000, 10_000, 100_000)
TARGET_CPU_SECONDS = 60.0
_TOOK = re.compile(r"took: +([\d.]+)s.*\(CPU: lanegate ([\d.]+)s, tests ([\d.]+)s\)", re.MULTILINE)
_LANE = re.compile(r"^(property|fixture|flake|lint|gate) +([A-Z]+) ", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Measured:
    """One size's run: what `lanegate run` printed at its end."""

    files: int
    test_modules: int
    wall_seconds: float
    lanegate_cpu: float
    tests_cpu: float
    lanes: str


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


def make_repo(root: Path, added: int) -> int:
    """A repository at `root` whose branch `agent` adds `added` files to `main`; returns how many of
    them are test modules."""
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    (root / "lanegate.toml").write_text("[fixtures]\nallow_none = true\n")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "mod.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "tests" / "gen").mkdir(parents=True)
    (root / "tests" / "test_mod.py").write_text(
        "from pkg.mod import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
    )
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "base")
    _git(root, "checkout", "-q", "-b", "agent")
    tests = 0
    for i in range(added):
        if i % TEST_EVERY == 0:
            tests += 1
            (root / "tests" / "gen" / f"test_g{i:06d}.py").write_text(
                f"from pkg.mod import add\n\n\ndef test_g{i}():\n    assert add({i}, 1) == {i + 1}\n"
            )
            continue
        folder = root / "data" / f"d{i // 1000:03d}"
        if i % 1000 == 0 or not folder.is_dir():
            folder.mkdir(parents=True, exist_ok=True)
        (folder / f"f{i:06d}.txt").write_text(f"{i}\n")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", f"add {added} files")
    return tests


def measure(repo: Path, files: int, tests: int, out: Path) -> Measured:
    """Run `lanegate run` on `repo` as its own process and read its closing lines."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTEST_"))}
    done = subprocess.run(
        [sys.executable, "-m", "lanegate", "run", "--base", "main", "--quiet", "--out", str(out)],
        cwd=repo,
        env={**env, **GIT_ENV},
        capture_output=True,
        text=True,
        check=False,
    )
    took = _TOOK.search(done.stdout)
    if took is None:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"lanegate run exited {done.returncode} without its cost line: {tail}")
    lanes = " ".join(f"{name}={verdict.lower()}" for name, verdict in _LANE.findall(done.stdout))
    return Measured(
        files, tests, float(took.group(1)), float(took.group(2)), float(took.group(3)), lanes
    )


def table(rows: list[Measured]) -> str:
    """The measurements, one line per size, with the growth factor against the size before."""
    lines = [
        f"{'added':>8} {'tests':>6} {'wall s':>8} {'lanegate CPU s':>15} {'tests CPU s':>12} "
        f"{'growth':>7}  lanes"
    ]
    for before, row in zip([None, *rows], rows, strict=False):
        growth = "-"
        if before is not None and before.lanegate_cpu > 0:
            ratio = (row.lanegate_cpu / before.lanegate_cpu) / (row.files / before.files)
            growth = f"{ratio:.2f}"
        lines.append(
            f"{row.files:>8} {row.test_modules:>6} {row.wall_seconds:>8.1f} "
            f"{row.lanegate_cpu:>15.1f} {row.tests_cpu:>12.1f} {growth:>7}  {row.lanes}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES))
    parser.add_argument("--keep", type=Path, default=None, help="generate the repositories here")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="lanegate-diff-scale-") as scratch:
        top = args.keep or Path(scratch)
        rows = []
        for size in sizes:
            repo = top / f"added-{size}"
            tests = make_repo(repo, size)
            rows.append(measure(repo, size, tests, top / f"out-{size}"))
            print(table(rows).splitlines()[-1], flush=True)
    print()
    print(table(rows))
    last = rows[-1]
    verdict = "met" if last.lanegate_cpu < TARGET_CPU_SECONDS else "MISSED"
    print(
        f"target: {last.files} added files under {TARGET_CPU_SECONDS:.0f} s of lanegate's own CPU: "
        f"{verdict} ({last.lanegate_cpu:.1f} s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
