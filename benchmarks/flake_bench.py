"""Flake detection on two corpora: the spec minimum vs flakefinder vs randomly vs lanegate.

Run: `python benchmarks/flake_bench.py [--smoke] [--runs N] [--fp-runs N] [--curve B,B,...]
[--corpus own|independent|heldout|fresh|unseen|sixth|seventh|eighth|both|all] [--layout case|half]
[--sandboxed-minimum] [--hypothesis-plugin]` (`both`: own and independent; `all`:
every one present). Eight corpora, reported separately:
  own          tests/cases/flake_corpus/ (planted while the lane was written; manifest.json);
  independent  benchmarks/flake_corpus_independent/ (written from the literature by someone who had
               not seen the lane's code; manifest.toml + cases/<id>/, copied in unchanged);
  heldout      benchmarks/flake_corpus_heldout/ (the same layout, written by another helper while
               the lane was changed before, measured once then; a development corpus since);
  fresh        benchmarks/flake_corpus_fresh/ (the same layout, written by a helper who never saw
               the lane while issue 14's second round changed it, measured once with the final lane);
  unseen       benchmarks/flake_corpus_unseen/ (the same layout, written by a helper who never saw
               the lane while issue 14's third round changed it, measured once with the final lane);
  sixth        benchmarks/flake_corpus_sixth/ (the same layout, 41 topics, written by a helper who
               never saw the lane while issue 14's fourth round changed it, measured once with the
               final lane);
  seventh      benchmarks/flake_corpus_seventh/ (the same layout, written blind by a helper while
               issue 14's eleventh round changed the lane, measured once with the final lane);
  eighth       benchmarks/flake_corpus_eighth/ (the same layout, 40 topics, written blind by a helper
               with new classes: two copies at once on one host, calendar dates and clock position,
               root vs unprivileged).
The own corpus is one repository (its cases were written to share one); an external corpus is laid
out `--layout case` (default: each case directory the head of a repository of its own, so every
strategy runs it alone, in its own processes, from its own directory, as its authors measured the
labels) or `--layout half` (the `_a` and the `_b` cases each one repository: cheaper, but cases of a
half share a process and run from the repository's root). On the same tests:
  (a) the spec minimum: 3 replays, PYTHONHASHSEED=0, the same order;
  (b) pytest-flakefinder: one process, every test repeated `--flake-runs` times in place;
  (c) pytest-randomly with 3 seeds: 3 processes, shuffled order, `random` reseeded per test;
  (d) lanegate's plan (`lanegate.lanes.flake.run_lane`) with the default policy.
With `--sandboxed-minimum`, (a') next to each (a): (a)'s three replays again, each in lanegate's
bubblewrap sandbox as SPEC 9 makes the lane run them (CPU only): how much of (d)'s CPU above (a) is
the sandbox's, and (d) against it.
Each corpus repository's root pytest.ini turns Hypothesis's pytest plugin off (`-p no:hypothesispytest`,
the corpora hold no properties); `--hypothesis-plugin` leaves it on, as it is wherever Hypothesis is
installed (seventh's and eighth's cases bring a pytest.ini of their own, which have it on either way).
(a) and (d) run `--fp-runs` times (default 10), each (d) next to its own (a) so both see the same
machine load: recall and the CPU ratio are the median over those runs, false positives the stable
look-alikes flagged in any run. `--curve` adds recall and CPU ratio (median of `--runs`, default 3)
for each repetition budget (flake.repeat_budget_seconds). CPU seconds are the child processes' user +
sys (RUSAGE_CHILDREN), the bench made a child subreaper first: bubblewrap's outer process exits without
waiting for the sandbox's init, whose CPU would otherwise never reach this process (and the lane's
sandboxed replays would look free); (d) adds the lane's own work in this process (RUSAGE_SELF while
`run_lane` runs; before 2026-12-05's eleventh round it was left out, 0.03-0.04 s a case, about
+0.05x). Not counted: the start of a `lanegate` process and its imports (about 0.1 s, once per
lane run: in the case layout, once per case). Targets: >= 90% caught, 0 false positives, <= 1.5x the CPU of (a).
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "cases" / "flake_corpus"
INDEPENDENT = ROOT / "benchmarks" / "flake_corpus_independent"
HELDOUT = ROOT / "benchmarks" / "flake_corpus_heldout"
FRESH = ROOT / "benchmarks" / "flake_corpus_fresh"
UNSEEN = ROOT / "benchmarks" / "flake_corpus_unseen"
SIXTH = ROOT / "benchmarks" / "flake_corpus_sixth"
SEVENTH = ROOT / "benchmarks" / "flake_corpus_seventh"
EIGHTH = ROOT / "benchmarks" / "flake_corpus_eighth"
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
# `--hypothesis-plugin`: the root pytest.ini leaves Hypothesis's plugin on, as it is wherever
# Hypothesis is installed (the property lane needs it). Plain pytest then imports Hypothesis at
# every process's end (6.155's terminal summary); since 2026-12-05 the lane's replays do not.
PYTEST_INI_WITH_HYPOTHESIS = "[pytest]\n"
_corpus_ini = PYTEST_INI  # what `_corpus_repo` writes; main() switches it for --hypothesis-plugin
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


@dataclass(frozen=True)
class CorpusRepo:
    """One git repository of a corpus's layout, and what its node ids are named in the manifest:
    `prefix` + the node id pytest reports (`<case id>/` when a case is a repository of its own)."""

    path: Path
    prefix: str = ""


@dataclass(frozen=True)
class Corpus:
    """A labelled corpus and how to lay it out as git repositories (base: pytest.ini only; head:
    the cases added); every strategy runs on each repository and the results are added up."""

    name: str
    tests: list[CorpusTest]
    build: Callable[[Path], list[CorpusRepo]]


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


def _corpus_repo(dest: Path, add: Callable[[Path], None]) -> Path:
    """A git repo whose `main` has only a pytest.ini and whose HEAD adds what `add` writes."""
    dest.mkdir(parents=True)
    _git(dest, "init", "-q", "-b", "main")
    (dest / "pytest.ini").write_text(_corpus_ini, encoding="utf-8")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-q", "-m", "base")
    _git(dest, "checkout", "-q", "-b", "corpus")
    add(dest)
    _git(dest, "add", "-A")
    _git(dest, "commit", "-q", "-m", "corpus")
    return dest


def build_corpus_repo(dest: Path, modules: tuple[str, ...] | None = None) -> Path:
    """The own corpus: each `case_<topic>.py` as `test_<topic>.py`."""

    def add(repo: Path) -> None:
        for source in sorted(CORPUS.glob("case_*.py")):
            topic = source.stem[len("case_") :]
            if modules is None or topic in modules:
                shutil.copyfile(source, repo / f"test_{topic}.py")

    return _corpus_repo(dest, add)


def own_corpus(modules: tuple[str, ...] | None = None) -> Corpus:
    """The corpus planted while the lane was written."""
    return Corpus(
        "own", load_manifest(modules), lambda dest: [CorpusRepo(build_corpus_repo(dest, modules))]
    )


def load_independent(root: Path = INDEPENDENT) -> list[CorpusTest]:
    """An independent corpus's judged nodes: `<case id>/<node id>` (each case is a directory)."""
    data = tomllib.loads((root / "manifest.toml").read_text(encoding="utf-8"))
    return [
        CorpusTest(f"{c['id']}/{c['node_id']}", str(c["class"]), bool(c["flaky"]))
        for c in data["case"]
    ]


def _twin_suffix(name: str) -> str:
    """`_a` or `_b` for a twin's case directory, `` for a case without a twin suffix."""
    return name[-2:] if name.endswith(("_a", "_b")) else ""


def _cases(root: Path) -> list[Path]:
    return sorted(c for c in (root / "cases").iterdir() if c.is_dir())


def build_case_repos(dest: Path, root: Path = INDEPENDENT) -> list[CorpusRepo]:
    """An independent corpus as its authors measured it: each case directory, unchanged, the whole
    head of a repository of its own, so every strategy runs each case alone, in processes of its
    own, from the case's own directory (a relative path resolves from there)."""

    def repo(case: Path) -> CorpusRepo:
        def add(target: Path) -> None:
            shutil.copytree(
                case,
                target,
                ignore=shutil.ignore_patterns("__pycache__"),
                dirs_exist_ok=True,
            )

        return CorpusRepo(_corpus_repo(dest / case.name, add), prefix=f"{case.name}/")

    return [repo(case) for case in _cases(root)]


def build_independent_repos(dest: Path, root: Path = INDEPENDENT) -> list[CorpusRepo]:
    """The `half` layout: an independent corpus's case directories, unchanged, as top-level
    directories of two repositories: the `_a` cases in one, the `_b` cases in the other (cases
    without either suffix in a third). It is cheap (two repositories' processes instead of one
    per case) but not how the labels were measured: cases of one half share a process (order
    dependencies between them) and run from the repository's root (relative paths miss)."""
    cases = _cases(root)
    repos = []
    for suffix in ("_a", "_b", ""):
        mine = [c for c in cases if _twin_suffix(c.name) == suffix]
        if not mine:
            continue

        def add(repo: Path, mine: list[Path] = mine) -> None:
            for case in mine:
                shutil.copytree(
                    case, repo / case.name, ignore=shutil.ignore_patterns("__pycache__")
                )

        repos.append(CorpusRepo(_corpus_repo(dest / (suffix.strip("_") or "single"), add)))
    return repos


LAYOUTS = ("case", "half")


def independent_corpus(
    name: str = "independent", root: Path = INDEPENDENT, layout: str = "case"
) -> Corpus | None:
    """A corpus written by someone who had not seen the lane (None when it is not there), laid out
    one repository per case (`case`, how its labels were measured) or per half (`half`)."""
    if not (root / "manifest.toml").is_file():
        return None
    if layout not in LAYOUTS:
        raise ValueError(f"--layout {layout!r}: expected one of {', '.join(LAYOUTS)}")
    build = build_case_repos if layout == "case" else build_independent_repos
    return Corpus(name, load_independent(root), lambda dest: build(dest, root))


PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make orphaned descendants (a sandbox's init, once bubblewrap's outer process has exited)
    children of this process, so that reaping them adds their CPU to RUSAGE_CHILDREN (Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _reap_orphans(grace: float = 5.0) -> None:
    """Wait for every orphan handed to this subreaper (none are left running by a finished run)."""
    deadline = time.monotonic() + grace
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.monotonic() > deadline:
                return
            time.sleep(0.01)


def warm_rewrite_cache() -> bool:
    """Let pytest write its assert-rewrite cache of the installed plugins once, before anything is
    measured; False when it could not (pytest failed, or the environment is read-only).

    (a)-(c) run with PYTHONDONTWRITEBYTECODE=1, which also keeps pytest from caching its rewrite of
    every entry-point plugin (xdist, pytest-cov, flakefinder, ...). In an environment where no
    pytest run ever wrote that cache, each of their starts rewrites those modules again (a trivial
    suite with the corpus's plugins: 0.42 against 0.30 CPU s; (a) on six unseen cases: 15% dearer),
    which made the baselines dearer than a CI runner's after its first run. The lane's replays
    never rewrite installed modules, so only the baselines change."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k != "PYTHONDONTWRITEBYTECODE" and not k.startswith(("PYTEST_", "LANEGATE_"))
    }
    with tempfile.TemporaryDirectory(prefix="lanegate-flake-warm-") as raw:
        (Path(raw) / "test_warm.py").write_text("def test_warm():\n    pass\n", encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_warm.py"],
            cwd=raw,
            env=env,
            capture_output=True,
            timeout=300,
            check=False,
        )
    return done.returncode == 0 and _rewrite_cache_written()


def warm_lanegate_bytecode() -> bool:
    """Compile lanegate's own modules before anything is measured, as `sandbox.bytecode.warm` does
    on a runner (or pip at install); False when some could not be written.

    The bench runs with PYTHONDONTWRITEBYTECODE=1, which turns that warm-up off, and a checkout
    never imported outside the sandbox has no byte code for what only replays import (the flake
    plugin and its modules): each replay then compiled them, about 25 ms of CPU, which no runner
    with byte code writing on pays."""
    import lanegate
    from lanegate.sandbox import bytecode

    return bytecode.compile_package(Path(lanegate.__file__).resolve().parent)


def _rewrite_cache_written() -> bool:
    """True when pytest's rewrite of xdist's plugin (an entry-point plugin every strategy loads)
    is cached beside its source."""
    import pytest
    import xdist.plugin

    source = Path(xdist.plugin.__file__)
    tag = f"{sys.implementation.cache_tag}-pytest-{pytest.__version__}.pyc"
    return (source.parent / "__pycache__" / f"{source.stem}.{tag}").is_file()


def _cpu() -> float:
    _reap_orphans()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _own_cpu() -> float:
    """This process's own CPU seconds: the lane runs in it (its git parsing, selection, planning,
    ledger), work that `lanegate flake` does in a process of its own."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _base_env(work: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "LANEGATE_"))}
    env["PYTHONPATH"] = str(work)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _judged_names(node_id: str) -> tuple[str, ...]:
    """The names a corpus may judge a run by: the node id, and without its parametrization (a
    manifest names either a whole parametrized test or one of its items)."""
    base = node_id.split("[", 1)[0]
    return (base,) if base == node_id else (node_id, base)


def _pytest_outcomes(
    repo: CorpusRepo, work: Path, args: list[str], env_extra: dict[str, str], tag: str
) -> dict[str, list[str]]:
    """Run pytest once with the bench's reporting plugin; node id (params stripped) -> outcomes."""
    out = work / f"{tag}.jsonl"
    tmp = work / f"{tag}-tmp"
    tmp.mkdir()
    env = {**_base_env(work), **env_extra, "BENCH_OUTCOMES": str(out), "TMPDIR": str(tmp)}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "bench_outcomes", "-p", "no:cacheprovider"]
        + args,
        cwd=repo.path,
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
        node_id = repo.prefix + node_id
        # One entry per run of a test: a failing phase wins over the call's pass.
        key = node_id
        if when == "call":
            for name in _judged_names(node_id):
                outcomes.setdefault(name, []).append(outcome)
            per_run[key] = outcome
        elif outcome != "passed":
            for name in _judged_names(node_id):
                outcomes.setdefault(name, []).append("error")
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


def spec_minimum(
    repo: CorpusRepo, work: Path, tests: list[CorpusTest], tag: str = "a"
) -> StrategyResult:
    start = _cpu()
    runs = [
        _pytest_outcomes(repo, work, ["-p", "no:randomly"], {"PYTHONHASHSEED": "0"}, f"{tag}.{i}")
        for i in range(3)
    ]
    return _score("(a) spec minimum", tests, _disagreeing(runs, tests), _cpu() - start)


def sandboxed_minimum(repo: CorpusRepo, work: Path) -> float:
    """(a'): the CPU seconds of (a)'s three replays run the way SPEC 9 makes lanegate run any
    process of head code: each in its own bubblewrap sandbox (a private copy of the tree, a fresh
    `/tmp`), the same pytest command and hash seed. Only the CPU is read (the sandbox's file system
    is read-only, so no outcome file is written): (a) says what three replays catch."""
    from lanegate.sandbox import open_sandbox

    env = {k: v for k, v in _base_env(work).items() if k != "PYTHONPATH"}
    env["PYTHONHASHSEED"] = "0"
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    start = _cpu()
    with open_sandbox(repo.path) as sandbox:  # its pids cgroup and spec files go with it
        for _ in range(3):
            command = sandbox.command(argv, env=env, cwd=repo.path)
            subprocess.run(
                command.argv,
                env=command.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                check=False,
                timeout=600,
            )
    return _cpu() - start


def flakefinder(repo: CorpusRepo, work: Path, tests: list[CorpusTest]) -> StrategyResult:
    start = _cpu()
    args = ["-p", "no:randomly", "--flake-finder", f"--flake-runs={FLAKE_RUNS}"]
    runs = [_pytest_outcomes(repo, work, args, {}, f"b-{repo.path.name}")]
    return _score(
        f"(b) flakefinder x{FLAKE_RUNS}", tests, _disagreeing(runs, tests), _cpu() - start
    )


def randomly(repo: CorpusRepo, work: Path, tests: list[CorpusTest]) -> StrategyResult:
    start = _cpu()
    runs = [
        _pytest_outcomes(
            repo, work, ["-p", "randomly", f"--randomly-seed={s}"], {}, f"c{s}-{repo.path.name}"
        )
        for s in RANDOMLY_SEEDS
    ]
    return _score("(c) randomly x3 seeds", tests, _disagreeing(runs, tests), _cpu() - start)


def lanegate_plan(
    repo: CorpusRepo,
    work: Path,
    tests: list[CorpusTest],
    budget: float | None = None,
    tag: str = "d",
) -> StrategyResult:
    from lanegate.lanes.context import LaneContext
    from lanegate.lanes.flake import run_lane
    from lanegate.ledgers.load import load_file
    from lanegate.ledgers.models import FlakeLedger
    from lanegate.policy import Policy

    policy = Policy()
    if budget is not None:
        policy = dataclasses.replace(
            policy, flake=dataclasses.replace(policy.flake, repeat_budget_seconds=budget)
        )
    start, own = _cpu(), _own_cpu()
    outcome = run_lane(LaneContext(repo=repo.path, base="main", policy=policy, out_dir=work / tag))
    cpu = _cpu() - start + _own_cpu() - own
    ledger = load_file(FlakeLedger, "flake", outcome.ledger_path).value
    flagged = {
        repo.prefix + n
        for t in ledger.tests
        if not t.deterministic
        for n in _judged_names(t.node_id)
    }
    return _score("(d) lanegate", tests, flagged, cpu)


@dataclass(frozen=True)
class CurvePoint:
    """(a) next to (d) at one repetition budget, `--runs` times: what each run gave."""

    budget: float
    minimum: tuple[StrategyResult, ...]
    lanegate: tuple[StrategyResult, ...]

    @property
    def shares(self) -> list[float]:
        return [d.share for d in self.lanegate]

    @property
    def ratios(self) -> list[float]:
        return [
            d.cpu_seconds / a.cpu_seconds for a, d in zip(self.minimum, self.lanegate, strict=True)
        ]

    @property
    def flagged_stable(self) -> tuple[str, ...]:
        """The look-alikes (d) flagged in any of the runs."""
        return tuple(sorted({n for d in self.lanegate for n in d.flagged_stable}))

    def line(self) -> str:
        shares = ", ".join(f"{100 * x:.0f}" for x in self.shares)
        ratios = ", ".join(f"{x:.2f}" for x in self.ratios)
        stable = self.lanegate[0].stable_total if self.lanegate else 0
        return (
            f"curve: repeat_budget_seconds={self.budget:g} "
            f"recall {100 * statistics.median(self.shares):.0f}% ({shares}) "
            f"CPU {statistics.median(self.ratios):.2f}x ({ratios}) "
            f"false positives {len(self.flagged_stable)}/{stable} in {len(self.lanegate)} runs"
            + (f": {', '.join(self.flagged_stable)}" if self.flagged_stable else "")
        )


@dataclass(frozen=True)
class CorpusReport:
    """One corpus: the baselines once, and (a) next to (d) in every repeated run."""

    corpus: str
    baselines: list[StrategyResult]
    minimum: list[StrategyResult]
    lanegate: list[StrategyResult]
    curve: list[CurvePoint]
    repositories: int = 1
    wall_seconds: float = 0.0
    sandboxed_minimum: tuple[float, ...] = ()  # (a') CPU seconds per run, when measured

    @property
    def ratios(self) -> list[float]:
        return [
            d.cpu_seconds / a.cpu_seconds for a, d in zip(self.minimum, self.lanegate, strict=True)
        ]


def _combine(results: list[StrategyResult]) -> StrategyResult:
    """One strategy's results on each repository of a corpus, added up (each test is in one)."""
    missed = set(results[0].missed).intersection(*(r.missed for r in results[1:]))
    first = results[0]
    return dataclasses.replace(
        first,
        caught=first.flaky_total - len(missed),
        false_positives=len({n for r in results for n in r.flagged_stable}),
        cpu_seconds=sum(r.cpu_seconds for r in results),
        missed=tuple(sorted(missed)),
        flagged_stable=tuple(sorted({n for r in results for n in r.flagged_stable})),
    )


def _paired(
    repos: list[CorpusRepo],
    work: Path,
    tests: list[CorpusTest],
    runs: int,
    budget: float | None,
    sandboxed: list[float] | None = None,
) -> tuple[list[StrategyResult], list[StrategyResult]]:
    """(a) next to (d), `runs` times; with `sandboxed`, (a') too, its CPU appended there."""
    minimum: list[StrategyResult] = []
    ours: list[StrategyResult] = []
    for i in range(runs):
        tag = f"{i}-{budget}"
        minimum.append(
            _combine([spec_minimum(r, work, tests, f"a{tag}-{k}") for k, r in enumerate(repos)])
        )
        if sandboxed is not None:
            sandboxed.append(sum(sandboxed_minimum(r, work) for r in repos))
        ours.append(
            _combine(
                [lanegate_plan(r, work, tests, budget, f"d{tag}-{k}") for k, r in enumerate(repos)]
            )
        )
    return minimum, ours


def run_corpus(
    corpus: Corpus,
    fp_runs: int,
    curve_runs: int,
    budgets: list[float],
    smoke: bool,
    baselines: bool = True,
    sandboxed: bool = False,
) -> CorpusReport:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="lanegate-flake-bench-") as raw:
        work = Path(raw)
        (work / "bench_outcomes.py").write_text(OUTCOME_PLUGIN, encoding="utf-8")
        repos = corpus.build(work / "corpus")
        tests = corpus.tests
        others = (
            [
                _combine([flakefinder(r, work, tests) for r in repos]),
                _combine([randomly(r, work, tests) for r in repos]),
            ]
            if baselines
            else []
        )
        in_sandbox: list[float] | None = [] if sandboxed else None
        minimum, ours = _paired(repos, work, tests, fp_runs, None, in_sandbox)
        curve = []
        for budget in budgets:
            a_runs, d_runs = _paired(repos, work, tests, curve_runs, budget)
            curve.append(CurvePoint(budget, tuple(a_runs), tuple(d_runs)))
        return CorpusReport(
            corpus.name,
            others,
            minimum,
            ours,
            curve,
            repositories=len(repos),
            wall_seconds=time.monotonic() - started,
            sandboxed_minimum=tuple(in_sandbox or ()),
        )


def stable_only(corpus: Corpus, runs: int, budget: float | None = None) -> list[StrategyResult]:
    """False positives alone: (d) `runs` times on the repositories that hold a stable look-alike,
    no (a) beside it, at repetition budget `budget` (None: the policy's default). In the case layout each look-alike is a repository of its own, so its
    verdict is the one the paired runs would give, at a fraction of their cost."""
    stable = [t for t in corpus.tests if not t.flaky]
    with tempfile.TemporaryDirectory(prefix="lanegate-flake-fp-") as raw:
        work = Path(raw)
        (work / "bench_outcomes.py").write_text(OUTCOME_PLUGIN, encoding="utf-8")
        repos = [
            r
            for r in corpus.build(work / "corpus")
            if not r.prefix or any(t.node_id.startswith(r.prefix) for t in stable)
        ]
        return [
            _combine(
                [lanegate_plan(r, work, stable, budget, f"fp{i}-{k}") for k, r in enumerate(repos)]
            )
            for i in range(runs)
        ]


EXTERNAL = (
    ("independent", INDEPENDENT),
    ("heldout", HELDOUT),
    ("fresh", FRESH),
    ("unseen", UNSEEN),
    ("sixth", SIXTH),
    ("seventh", SEVENTH),
    ("eighth", EIGHTH),
)


def run_benchmark(
    smoke: bool = False,
    fp_runs: int = 10,
    curve_runs: int = 3,
    budgets: list[float] | None = None,
    which: str = "both",
    layout: str = "case",
    baselines: bool = True,
    sandboxed: bool = False,
) -> list[CorpusReport]:
    return [
        run_corpus(c, fp_runs, curve_runs, budgets or [], smoke, baselines, sandboxed)
        for c in chosen_corpora(which, smoke, layout)
    ]


def chosen_corpora(which: str, smoke: bool, layout: str) -> list[Corpus]:
    """The corpora `--corpus which` names: own for own/both/all, each external one by name or for
    all, independent for both; the smoke size is a few own-corpus modules alone."""
    corpora = (
        [own_corpus(SMOKE_MODULES if smoke else None)] if which in ("own", "both", "all") else []
    )
    if not smoke:
        for name, root in EXTERNAL:
            if which in (name, "all") or (which == "both" and name == "independent"):
                found = independent_corpus(name, root, layout)
                if found is not None:
                    corpora.append(found)
    return corpora


def _median_result(results: list[StrategyResult]) -> StrategyResult:
    middle = sorted(results, key=lambda r: r.share)[len(results) // 2]
    return dataclasses.replace(
        middle,
        cpu_seconds=statistics.median(r.cpu_seconds for r in results),
        false_positives=len({n for r in results for n in r.flagged_stable}),
        flagged_stable=tuple(sorted({n for r in results for n in r.flagged_stable})),
    )


def report(reports: list[CorpusReport]) -> str:
    lines: list[str] = []
    for rep in reports:
        runs = len(rep.lanegate)
        lines.append(
            f"== corpus: {rep.corpus} ({runs} paired runs of (a) and (d); median shown; "
            f"{rep.repositories} repositories; bench wall {rep.wall_seconds:.0f} s)"
        )
        lines.append(f"{'strategy':<26} {'caught':>12} {'false pos':>10} {'CPU s':>8}")
        shown = [_median_result(rep.minimum), *rep.baselines, _median_result(rep.lanegate)]
        for r in shown:
            caught = f"{r.caught}/{r.flaky_total} {100 * r.share:3.0f}%"
            lines.append(
                f"{r.name:<26} {caught:>12} {r.false_positives:>4}/{r.stable_total:<5} "
                f"{r.cpu_seconds:8.2f}"
            )
        shares = ", ".join(f"{100 * d.share:.0f}%" for d in rep.lanegate)
        ratios = ", ".join(f"{x:.2f}" for x in rep.ratios)
        lines.append(f"lanegate recall per run: {shares}")
        lines.append(f"lanegate CPU vs spec minimum per run: {ratios}")
        lines.append(f"lanegate CPU vs spec minimum: {statistics.median(rep.ratios):.2f}x (median)")
        if rep.sandboxed_minimum:
            cpu = rep.sandboxed_minimum
            shares = [d.cpu_seconds / a for a, d in zip(cpu, rep.lanegate, strict=True)]
            sandbox = [a_s / a.cpu_seconds for a_s, a in zip(cpu, rep.minimum, strict=True)]
            lines.append(
                f"(a') spec minimum in the sandbox: {statistics.median(cpu):.2f} CPU s, "
                f"{statistics.median(sandbox):.2f}x (a); lanegate vs (a'): "
                f"{statistics.median(shares):.2f}x (median; "
                + ", ".join(f"{x:.2f}" for x in shares)
                + ")"
            )
        ours = _median_result(rep.lanegate)
        missed = sorted({n for d in rep.lanegate for n in d.missed})
        if missed:
            lines.append("lanegate missed (in any run): " + ", ".join(missed))
        if ours.flagged_stable:
            lines.append("lanegate false positives (in any run): " + ", ".join(ours.flagged_stable))
        lines.extend(point.line() for point in rep.curve)
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a few own-corpus modules, one run")
    parser.add_argument("--fp-runs", type=int, default=None, help="paired runs (default 10)")
    parser.add_argument("--runs", type=int, default=3, help="runs per curve point (default 3)")
    parser.add_argument("--curve", default="", help="comma-separated repetition budgets")
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="with --stable-only: the repetition budget (default: the policy's)",
    )
    parser.add_argument(
        "--corpus",
        choices=("own", *(name for name, _ in EXTERNAL), "both", "all"),
        default="both",
    )
    parser.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="case",
        help="external corpora: a repository per case (default, as measured) or per half",
    )
    parser.add_argument(
        "--baselines",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="run (b) flakefinder and (c) randomly too (one process per repository each)",
    )
    parser.add_argument(
        "--sandboxed-minimum",
        action="store_true",
        help="also run (a') the spec minimum's three replays in lanegate's sandbox (CPU only)",
    )
    parser.add_argument(
        "--hypothesis-plugin",
        action="store_true",
        help="leave Hypothesis's pytest plugin on in the corpus repositories (as where it is installed)",
    )
    parser.add_argument(
        "--stable-only",
        action="store_true",
        help="false positives alone: (d) --fp-runs times on the stable look-alikes, no (a)",
    )
    args = parser.parse_args(argv)
    global _corpus_ini
    _corpus_ini = PYTEST_INI_WITH_HYPOTHESIS if args.hypothesis_plugin else PYTEST_INI
    fp_runs = args.fp_runs if args.fp_runs is not None else (1 if args.smoke else 10)
    try:
        budgets = [float(b) for b in args.curve.split(",") if b.strip()]
    except ValueError:
        parser.error(f"--curve: expected comma-separated numbers, got {args.curve!r}")
    if args.stable_only and budgets:
        parser.error("--stable-only runs no curve: leave out --curve")
    if args.budget is not None and not args.stable_only:
        parser.error("--budget sets --stable-only's budget: with a curve, use --curve")
    if args.budget is not None and args.budget < 0:
        parser.error(f"--budget: expected a number >= 0, got {args.budget:g}")
    if not warm_lanegate_bytecode():
        print(
            "warning: lanegate's byte code could not be written; every replay compiles the "
            "modules it imports from lanegate",
            file=sys.stderr,
        )
    if args.stable_only:
        return _stable_only_main(args, fp_runs)
    if not become_subreaper():
        print("warning: not a child subreaper; sandboxed CPU is not counted", file=sys.stderr)
    if not warm_rewrite_cache():
        print(
            "warning: pytest's rewrite cache of the installed plugins could not be written; "
            "the baselines rewrite them at every start",
            file=sys.stderr,
        )
    load = os.getloadavg()[0]
    reports = run_benchmark(
        args.smoke,
        fp_runs,
        args.runs,
        budgets,
        args.corpus,
        args.layout,
        args.baselines,
        args.sandboxed_minimum,
    )
    print(
        f"layout of the external corpora: {args.layout}; Hypothesis's pytest plugin "
        + ("on" if args.hypothesis_plugin else "off (-p no:hypothesispytest)")
    )
    print(report(reports))
    print(
        f"load average: {load:.2f} at start, {os.getloadavg()[0]:.2f} at the end; {os.cpu_count()} CPUs"
    )
    return 0


def _stable_only_main(args: argparse.Namespace, runs: int) -> int:
    """`--stable-only`: one line per corpus and run, and the look-alikes flagged in any run."""
    if not become_subreaper():
        print("warning: not a child subreaper; sandboxed CPU is not counted", file=sys.stderr)
    for corpus in chosen_corpora(args.corpus, args.smoke, args.layout):
        results = stable_only(corpus, runs, args.budget)
        budget = "the default" if args.budget is None else f"{args.budget:g}"
        for i, r in enumerate(results):
            print(
                f"{corpus.name} run {i + 1} (repeat budget {budget}): {r.false_positives}/"
                f"{r.stable_total} stable look-alikes flagged, CPU {r.cpu_seconds:.0f} s"
            )
        flagged = sorted({n for r in results for n in r.flagged_stable})
        print(f"{corpus.name}: flagged in any of {runs} runs: {', '.join(flagged) or 'none'}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}; {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    raise SystemExit(main())
