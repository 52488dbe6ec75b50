"""Mutants per second: lanegate's property lane vs mutmut 3 on the same target and the same changed lines.

One run builds a git repository from the proof target (tests/cases/property/target). In full mode the
feature branch adds the whole library module (the base holds only its docstring), so every line of it is
a changed line and steady-state throughput dominates the fixed set-up; with --smoke the base holds an
older version of one function only. lanegate plants its mutants on the changed lines (twice, to check
that no status flips); mutmut 3, which has no diff mode, runs on a copy of the head tree restricted to
the mutants of the changed functions (in full mode: every function of the module). Printed: mutants, seconds and mutants/s for each, the ratio, kill rates, and
status agreement on the mutants both tools made identically. lanegate's wall time includes the base
suite at head and the canary mutants (both in its phase breakdown); its mutants/s counts real ones.

    python benchmarks/mutant_bench.py [--smoke] [--workers N]
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lanegate.lanes import property as property_lane
from lanegate.lanes.context import LaneContext
from lanegate.lanes.property import run_lane
from lanegate.ledgers.load import load_file
from lanegate.ledgers.models import MutantStatus, PropertyLedger
from lanegate.policy import load_policy
from lanegate.scoring.property_rules import canary_hit

TARGET = Path(__file__).resolve().parents[1] / "tests" / "cases" / "property" / "target"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
# (function, text in the head version, text in the older base version): the diff's changed lines
CHANGES = [
    ("clamp", "if x > hi:", "if x >= hi:"),
    ("split_evenly", "base + 1 if i < extra", "base + 1 if extra > i"),
    ("running_total", "        total += x\n", "        total = total + x\n"),
    ("apply_fee", "amount * bps // 10000", "bps * amount // 10000"),
    ("decode_amounts", 'if text == "":', "if not text:"),
    ("normalize", "words = name.strip().lower().split()", "words = name.lower().strip().split()"),
]
SMOKE_CHANGES = CHANGES[:1]
MUTMUT_KILLED = {1, 3}
MUTMUT_SURVIVED = {0}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


def build_repo(root: Path, changes: list[tuple[str, str, str]] | None, smoke: bool = False) -> Path:
    """A git repo whose feature branch changes the lines of `changes` (base has the old text), or,
    when `changes` is None, adds the whole module body (base has its docstring only)."""
    repo = root / "repo"
    shutil.copytree(TARGET, repo, ignore=shutil.ignore_patterns("__pycache__", ".hypothesis"))
    (repo / "lanegate.toml").write_text("[properties]\nmax_mutants = 1000\n", encoding="utf-8")
    if smoke:  # both tools run the repository's own (small) Hypothesis profile
        (repo / "tests" / "conftest.py").write_text(
            "from hypothesis import settings\n\n"
            'settings.register_profile("bench-smoke", max_examples=10)\n'
            'settings.load_profile("bench-smoke")\n',
            encoding="utf-8",
        )
    head = (repo / "ledgermath.py").read_text(encoding="utf-8")
    base = head
    if changes is None:
        base = ast.get_docstring(ast.parse(head)) or ""
        base = f'"""{base}"""\n'
    for _, new, old in changes or []:
        assert head.count(new) == 1, new
        base = base.replace(new, old)
    (repo / "ledgermath.py").write_text(base, encoding="utf-8")
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "base")
    _git(repo, "checkout", "-q", "-b", "feature")
    (repo / "ledgermath.py").write_text(head, encoding="utf-8")
    _git(repo, "commit", "-q", "-am", "feature")
    return repo


def run_lanegate(
    repo: Path, out: Path, workers: int
) -> tuple[PropertyLedger, float, dict[str, float]]:
    """One property-lane run; returns the ledger, the wall seconds and the seconds per phase."""
    ctx = LaneContext(repo=repo, base="main", policy=load_policy(repo), out_dir=out)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    run_lane(ctx, workers=workers, timings=timings)
    seconds = time.perf_counter() - started
    ledger = load_file(PropertyLedger, "property", out / "property.json").value
    return ledger, seconds, timings


def phase_breakdown(timings: dict[str, float]) -> str:
    """One line per phase: where a lanegate run spent its wall time (worker phases sum over workers)."""
    lines = [
        f"  plan (diff, oracle check, mutants) {timings.get('plan', 0.0):6.2f} s wall",
        f"  baseline (traced suite run)        {timings.get('baseline', 0.0):6.2f} s wall",
        f"  base suite at head (own sandbox)   {timings.get('base_suite', 0.0):6.2f} s wall"
        + (
            f", alongside the baseline (waited {timings['base_suite_wait']:.2f} s after it)"
            if "base_suite_wait" in timings
            else ""
        ),
        f"  mutant phase                       {timings.get('mutants_wall', 0.0):6.2f} s wall",
        f"    worker set-up wait               {timings.get('worker_setup_wait', 0.0):6.2f} s "
        "(summed over workers)",
        f"    no-mutant control run            {timings.get('control', 0.0):6.2f} s "
        f"(child set-up {timings.get('control_child_setup', 0.0):.2f} s: 2x it is the timeouts' "
        "overhead term)",
    ]
    for status in MutantStatus:
        count = int(timings.get(f"mutant_{status}_count", 0))
        if count:
            spent = timings.get(f"mutant_{status}", 0.0)
            lines.append(
                f"    {status:<8} {count:3d} mutants          {spent:6.2f} s "
                f"({spent / count:.3f} s each)"
            )
    canaries = int(timings.get("canaries_count", 0))
    spent = timings.get("canaries", 0.0)
    lines.append(
        f"    of which canaries {canaries:3d}           {spent:6.2f} s"
        + (f" ({spent / canaries:.3f} s each)" if canaries else "")
    )
    lines.append(f"  total                              {timings.get('total', 0.0):6.2f} s wall")
    return "\n".join(lines)


def run_mutmut(
    repo: Path, root: Path, functions: list[str], workers: int
) -> tuple[dict[str, int | None], float, Path]:
    """mutmut 3 on a copy of the head tree, limited to the changed functions' mutants."""
    exe = Path(sys.executable).with_name("mutmut")
    if not exe.exists():
        raise RuntimeError(f"mutmut is not installed next to {sys.executable} (pip install mutmut)")
    work = root / "mutmut"
    shutil.copytree(repo, work, ignore=shutil.ignore_patterns(".git", "lanegate.toml"))
    with (work / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write(
            '\n[tool.mutmut]\nsource_paths = ["ledgermath.py"]\n'
            'pytest_add_cli_args_test_selection = ["tests/"]\n'
            'pytest_add_cli_args = ["-p", "no:randomly", "-p", "no:cacheprovider", '
            '"--hypothesis-seed=0"]\n'
        )
    names = [f"ledgermath.x_{name}__mutmut_*" for name in functions]
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    started = time.perf_counter()
    done = subprocess.run(
        [str(exe), "run", *names, "--max-children", str(workers)],
        cwd=work,
        capture_output=True,
        text=True,
        env=env,
        timeout=1800,
    )
    seconds = time.perf_counter() - started
    meta = work / "mutants" / "ledgermath.py.meta"
    if done.returncode != 0 or not meta.is_file():
        tail = (done.stdout + done.stderr).strip().splitlines()[-5:]
        raise RuntimeError(f"mutmut run exited {done.returncode}: {' | '.join(tail)}")
    codes: dict[str, int | None] = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    wanted = tuple(f"ledgermath.x_{name}__mutmut_" for name in functions)
    return {k: v for k, v in codes.items() if k.startswith(wanted)}, seconds, work


def _norm(line: str) -> str:
    return re.sub(r"[\s()]", "", line)


def _mutmut_edits(work: Path) -> dict[str, tuple[str, int, str]]:
    """mutant name -> (function, line offset from the def, mutated line) for one-line mutants."""
    tree = ast.parse((work / "mutants" / "ledgermath.py").read_text(encoding="utf-8"))
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    out: dict[str, tuple[str, int, str]] = {}
    for name, node in funcs.items():
        match = re.fullmatch(r"x_(\w+)__mutmut_(\d+)", name)
        orig = funcs.get(f"x_{match.group(1)}__mutmut_orig") if match else None
        if match is None or orig is None:
            continue
        a = ast.unparse(orig).splitlines()[1:]
        b = ast.unparse(node).splitlines()[1:]
        diff = [i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y]
        if len(a) == len(b) and len(diff) == 1:
            out[f"ledgermath.{name}"] = (match.group(1), diff[0], _norm(b[diff[0]]))
    return out


def _lanegate_edits(repo: Path, ledger: PropertyLedger) -> dict[str, tuple[str, int, str]]:
    source = (repo / "ledgermath.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    out: dict[str, tuple[str, int, str]] = {}
    for m in ledger.mutants:
        line = source.splitlines()[m.line - 1]
        raw = line.encode()
        mutated = (
            raw[: m.column] + m.replacement.encode() + raw[m.column + len(m.original.encode()) :]
        ).decode()
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.lineno <= m.line <= (
                node.end_lineno or 0
            ):
                body = ast.unparse(ast.parse(source.replace(line, mutated, 1)))
                func = next(
                    f
                    for f in ast.parse(body).body
                    if isinstance(f, ast.FunctionDef) and f.name == node.name
                )
                orig = ast.unparse(node).splitlines()[1:]
                new = ast.unparse(func).splitlines()[1:]
                diff = [i for i, (x, y) in enumerate(zip(orig, new, strict=False)) if x != y]
                if len(orig) == len(new) and len(diff) == 1:
                    out[m.id] = (node.name, diff[0], _norm(new[diff[0]]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--smoke", action="store_true", help="one changed function only (default: the whole module)"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--policy-cap",
        action="store_true",
        help="keep the lane's 2-mutants-per-line cap (default: lift it, so that both tools test "
        "every candidate on the changed lines and mutants/s compares throughput)",
    )
    args = parser.parse_args(argv)
    if not args.policy_cap:
        property_lane.plant.MAX_PER_LINE = 1_000
    changes = SMOKE_CHANGES if args.smoke else None
    if changes is None:
        module = ast.parse((TARGET / "ledgermath.py").read_text(encoding="utf-8"))
        functions = [n.name for n in module.body if isinstance(n, ast.FunctionDef)]
    else:
        functions = [name for name, _, _ in changes]
    root = Path(tempfile.mkdtemp(prefix="lanegate-mutant-bench-"))
    try:
        repo = build_repo(root, changes, smoke=args.smoke)
        first, t1, phases = run_lanegate(repo, root / "out1", args.workers)
        second, t2, _ = run_lanegate(repo, root / "out2", args.workers)
        planted = len(first.mutants)
        errors = [m.id for m in first.mutants if m.status is MutantStatus.ERROR]
        flips = [
            a.id
            for a, b in zip(first.mutants, second.mutants, strict=True)
            if (a.id, a.status) != (b.id, b.status)
        ]
        killed = sum(1 for m in first.mutants if m.status is MutantStatus.KILLED)
        canary_hits = [c.id for c in (*first.canaries, *second.canaries) if canary_hit(c)]
        rate = planted / t1 if t1 else 0.0
        print(f"changed functions: {', '.join(functions)}")
        cap = "2 per line (policy)" if args.policy_cap else "lifted (every candidate on the lines)"
        print(f"lanegate per-line cap: {cap}; workers: {args.workers}")
        print(
            f"lanegate: {planted} mutants in {t1:.1f} s (second run {t2:.1f} s) = {rate:.2f} mutants/s; "
            f"killed {killed}/{planted}; status flips between two identical runs: {len(flips)}; "
            f"errors: {len(errors)}"
        )
        print(
            f"canaries: {len(first.canaries)} and {len(second.canaries)} planted (two secret "
            f"draws), killed by the honest suite: {len(canary_hits)}; mutants/s counts real "
            "mutants over the whole lane's wall time (base suite at head and canaries included)"
        )
        print("lanegate phases (first run):")
        print(phase_breakdown(phases))
        problems = []
        if planted == 0:
            problems.append("lanegate planted no mutants")
        if errors:
            problems.append(f"lanegate mutants in error: {errors}")
        if canary_hits:
            problems.append(f"the honest suite killed canaries: {canary_hits}")
        if flips:
            problems.append(f"lanegate statuses flipped between identical runs: {flips}")
        try:
            codes, mm_seconds, work = run_mutmut(repo, root, functions, args.workers)
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            print(f"mutmut: COULD NOT RUN: {exc}")
            problems.append(f"mutmut could not run: {exc}")
        else:
            mm_total = len(codes)
            mm_killed = sum(1 for c in codes.values() if c in MUTMUT_KILLED)
            mm_rate = mm_total / mm_seconds if mm_seconds else 0.0
            print(
                f"mutmut 3: {mm_total} mutants in {mm_seconds:.1f} s = {mm_rate:.2f} mutants/s; "
                f"killed {mm_killed}/{mm_total}"
            )
            if mm_rate:
                print(f"ratio: lanegate {rate / mm_rate:.1f}x mutmut's mutants/s (target >= 3x)")
            ours = _lanegate_edits(repo, first)
            theirs = _mutmut_edits(work)
            status = {m.id: m.status is MutantStatus.KILLED for m in first.mutants}
            by_edit = {edit: name for name, edit in theirs.items()}
            pairs = [(i, by_edit[e]) for i, e in ours.items() if e in by_edit]
            agree = sum(1 for i, n in pairs if status[i] == (codes.get(n) in MUTMUT_KILLED))
            print(f"kill agreement on {len(pairs)} identical mutants: {agree}/{len(pairs)}")
        for problem in problems:
            print(f"FAIL: {problem}")
        return 1 if problems else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
