"""Flake detection on lanegate's planted corpus: the spec minimum vs flakefinder vs randomly vs lanegate.

Run: `python benchmarks/flake_bench.py [--smoke]`. One run builds the corpus repository once and runs,
on the same tests:
  (a) the spec minimum: 3 replays, PYTHONHASHSEED=0, the same order;
  (b) pytest-flakefinder: one process, every test repeated `--flake-runs` times in place;
  (c) pytest-randomly with 3 seeds: 3 processes, shuffled order, `random` reseeded per test;
  (d) lanegate's plan (`lanegate.lanes.flake.run_lane`).
For each: the share of planted flaky tests caught (outcomes disagree), false positives (a stable
look-alike flagged) and CPU seconds of the child processes (user + sys from RUSAGE_CHILDREN), and
lanegate's CPU ratio against (a). Targets: >= 85% caught, 0 false positives, <= 1.5x the CPU of (a).
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "cases" / "flake_corpus"
SMOKE_MODULES = ("order", "clock", "selfpollute")
FLAKE_RUNS = 10
RANDOMLY_SEEDS = (1, 2, 3)
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
}
# The corpus repository turns off Hypothesis's pytest plugin (the corpus has no properties): it would
# add the same ~1 s of imports to every process of every strategy.
PYTEST_INI = "[pytest]\naddopts = -p no:hypothesispytest\n"
OUTCOME_PLUGIN = """
import json, os
_PATH = os.environ.pop("BENCH_OUTCOMES")
def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        with open(_PATH, "a") as fh:
            fh.write(json.dumps([report.nodeid, report.when, report.outcome]) + "\\n")
"""


@dataclass(frozen=True)
class CorpusTest:
    node_id: str
    test_class: str
    flaky: bool


@dataclass(frozen=True)
class StrategyResult:
    name: str
    caught: int
    flaky_total: int
    false_positives: int
    stable_total: int
    cpu_seconds: float
    missed: tuple[str, ...]
    flagged_stable: tuple[str, ...]

    @property
    def share(self) -> float:
        return self.caught / self.flaky_total if self.flaky_total else 0.0


def load_manifest(modules: tuple[str, ...] | None = None) -> list[CorpusTest]:
    data = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
    tests = [CorpusTest(t["node_id"], t["class"], bool(t["flaky"])) for t in data["tests"]]
    if modules is not None:
        tests = [t for t in tests if t.node_id.split("::")[0][len("test_") : -3] in modules]
    return tests


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )


def build_corpus_repo(dest: Path, modules: tuple[str, ...] | None = None) -> Path:
    """A git repo whose `main` has only a pytest.ini and whose HEAD adds the corpus test modules."""
    dest.mkdir(parents=True)
    _git(dest, "init", "-q", "-b", "main")
    (dest / "pytest.ini").write_text(PYTEST_INI, encoding="utf-8")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-q", "-m", "base")
    _git(dest, "checkout", "-q", "-b", "corpus")
    for source in sorted(CORPUS.glob("case_*.py")):
        topic = source.stem[len("case_") :]
        if modules is None or topic in modules:
            shutil.copyfile(source, dest / f"test_{topic}.py")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-q", "-m", "corpus")
    return dest


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _base_env(work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "LANEGATE_"))}
    env["PYTHONPATH"] = str(work)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _pytest_outcomes(
    repo: Path, work: Path, args: list[str], env_extra: dict[str, str], tag: str
) -> dict[str, list[str]]:
    """Run pytest once with the bench's reporting plugin; node id (params stripped) -> outcomes."""
    out = work / f"{tag}.jsonl"
    tmp = work / f"{tag}-tmp"
    tmp.mkdir()
    env = {**_base_env(work), **env_extra, "BENCH_OUTCOMES": str(out), "TMPDIR": str(tmp)}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "bench_outcomes", "-p", "no:cacheprovider"]
        + args,
        cwd=repo,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
        timeout=600,
    )
    per_run: dict[str, str] = {}
    outcomes: dict[str, list[str]] = {}
    lines = out.read_text(encoding="utf-8").splitlines() if out.exists() else []
    for line in lines:
        node_id, when, outcome = json.loads(line)
        # One entry per run of a test: a failing phase wins over the call's pass.
        key = node_id
        if when == "call":
            outcomes.setdefault(node_id.split("[", 1)[0], []).append(outcome)
            per_run[key] = outcome
        elif outcome != "passed":
            outcomes.setdefault(node_id.split("[", 1)[0], []).append("error")
    return outcomes


def _score(name: str, tests: list[CorpusTest], flagged: set[str], cpu: float) -> StrategyResult:
    flaky = [t for t in tests if t.flaky]
    stable = [t for t in tests if not t.flaky]
    return StrategyResult(
        name=name,
        caught=sum(1 for t in flaky if t.node_id in flagged),
        flaky_total=len(flaky),
        false_positives=sum(1 for t in stable if t.node_id in flagged),
        stable_total=len(stable),
        cpu_seconds=cpu,
        missed=tuple(t.node_id for t in flaky if t.node_id not in flagged),
        flagged_stable=tuple(t.node_id for t in stable if t.node_id in flagged),
    )


def _disagreeing(runs: list[dict[str, list[str]]], tests: list[CorpusTest]) -> set[str]:
    flagged = set()
    for t in tests:
        seen: list[str] = []
        for run in runs:
            seen.extend(run.get(t.node_id, ["missing"]))
        if len(set(seen)) > 1:
            flagged.add(t.node_id)
    return flagged


def spec_minimum(repo: Path, work: Path, tests: list[CorpusTest]) -> StrategyResult:
    start = _cpu()
    runs = [
        _pytest_outcomes(repo, work, ["-p", "no:randomly"], {"PYTHONHASHSEED": "0"}, f"a{i}")
        for i in range(3)
    ]
    return _score("(a) spec minimum", tests, _disagreeing(runs, tests), _cpu() - start)


def flakefinder(repo: Path, work: Path, tests: list[CorpusTest]) -> StrategyResult:
    start = _cpu()
    args = ["-p", "no:randomly", "--flake-finder", f"--flake-runs={FLAKE_RUNS}"]
    runs = [_pytest_outcomes(repo, work, args, {}, "b")]
    return _score(
        f"(b) flakefinder x{FLAKE_RUNS}", tests, _disagreeing(runs, tests), _cpu() - start
    )


def randomly(repo: Path, work: Path, tests: list[CorpusTest]) -> StrategyResult:
    start = _cpu()
    runs = [
        _pytest_outcomes(repo, work, ["-p", "randomly", f"--randomly-seed={s}"], {}, f"c{s}")
        for s in RANDOMLY_SEEDS
    ]
    return _score("(c) randomly x3 seeds", tests, _disagreeing(runs, tests), _cpu() - start)


def lanegate_plan(repo: Path, work: Path, tests: list[CorpusTest]) -> StrategyResult:
    from lanegate.lanes.context import LaneContext
    from lanegate.lanes.flake import run_lane
    from lanegate.ledgers.load import load_file
    from lanegate.ledgers.models import FlakeLedger
    from lanegate.policy import Policy

    start = _cpu()
    outcome = run_lane(LaneContext(repo=repo, base="main", policy=Policy(), out_dir=work / "d"))
    cpu = _cpu() - start
    ledger = load_file(FlakeLedger, "flake", outcome.ledger_path).value
    flagged = {t.node_id.split("[", 1)[0] for t in ledger.tests if not t.deterministic}
    return _score("(d) lanegate", tests, flagged, cpu)


def run_benchmark(smoke: bool = False) -> list[StrategyResult]:
    modules = SMOKE_MODULES if smoke else None
    tests = load_manifest(modules)
    with tempfile.TemporaryDirectory(prefix="lanegate-flake-bench-") as raw:
        work = Path(raw)
        (work / "bench_outcomes.py").write_text(OUTCOME_PLUGIN, encoding="utf-8")
        repo = build_corpus_repo(work / "corpus", modules)
        return [
            spec_minimum(repo, work, tests),
            flakefinder(repo, work, tests),
            randomly(repo, work, tests),
            lanegate_plan(repo, work, tests),
        ]


def report(results: list[StrategyResult]) -> str:
    lines = [f"{'strategy':<26} {'caught':>12} {'false pos':>10} {'CPU s':>8}"]
    for r in results:
        caught = f"{r.caught}/{r.flaky_total} {100 * r.share:3.0f}%"
        lines.append(
            f"{r.name:<26} {caught:>12} {r.false_positives:>4}/{r.stable_total:<5} "
            f"{r.cpu_seconds:8.2f}"
        )
    base, ours = results[0], results[-1]
    ratio = ours.cpu_seconds / base.cpu_seconds if base.cpu_seconds else float("inf")
    lines.append(f"lanegate CPU vs spec minimum: {ratio:.2f}x")
    if ours.missed:
        lines.append("lanegate missed: " + ", ".join(ours.missed))
    if ours.flagged_stable:
        lines.append("lanegate false positives: " + ", ".join(ours.flagged_stable))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few corpus modules only")
    args = parser.parse_args(argv)
    results = run_benchmark(smoke=args.smoke)
    print(report(results))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main())
