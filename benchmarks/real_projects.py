"""Real projects: `lanegate run` on pull requests against pinned source distributions of real libraries.

For each project the script downloads its sdist from the package index (pinned version, sha256
checked), unpacks it into a git repository (base commit: the sdist as released, `.github/` dropped
so that the project's own workflows are not part of the verdict, plus a `lanegate.toml`), makes an
environment that sees lanegate and the project installed in editable mode with its test
dependencies, and judges three heads with `lanegate run --format json`:

- honest: a new function added to one of the project's own modules, and a new test (in the project's
  own style: a `unittest.TestCase` class where the suite uses them) that calls an oracle on
  Hypothesis inputs. It must pass.
- wrong-bug: the same test, the function with an off-by-one. It must fail with
  `property-cases-failed`.
- wrong-oracle: the correct function, a test that restates it instead of calling an oracle. It must
  fail with `property-missing-oracle`.

The projects cover a unittest-style suite (more-itertools), an xdist configuration (cachetools,
`-n auto` added to its addopts by this script: no small real project ships one), a src layout
(markupsafe, cachetools, python-dateutil, attrs), C extensions with pure-Python fallbacks (markupsafe,
pyrsistent), code running in threads (cachetools: the new function maps over a thread pool) and
Hypothesis-heavy suites (attrs, python-dateutil's property tests). Printed per project and head:
verdict and rule ids against the expected ones, `lanegate run` wall time against the target's
budget (3x one plain run of the project's suite plus the mutants' own test seconds, printed as the
ratio `(run - mutants' tests) / plain`, at most 3.0), where the run spent its time (the property
lane's phases and every step, from the arrival times of its progress lines), peak resident memory
of any single process against the plain suite's, and the base tests that fail at the base too
(pre-existing, not counted against the head).

    python benchmarks/real_projects.py [--smoke] [--only NAME ...] [--work DIR] [--cache DIR]

`--smoke` (what CI runs) judges more-itertools only. Exit 0 only when every verdict is as expected.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import site
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

LANEGATE_ROOT = Path(__file__).resolve().parents[1]
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
POLICY = """\
# written by benchmarks/real_projects.py
[fixtures]
allow_none = true

[properties]
max_examples = 50
max_mutants = 6

[lane]
# a hang guard, not a speed target: on the shared 2-core machine (load 10-16) attrs' traced
# baseline alone passed the default 180 s
max_wall_seconds = 900
"""


@dataclass(frozen=True, slots=True)
class Project:
    """One pinned sdist and where the benchmark's change goes."""

    name: str
    version: str
    sha256: str
    covers: str
    module: str  # repo-relative file the new function is appended to
    import_path: str  # how a test imports that module
    unittest_style: bool = False
    threads: bool = False
    test_file: str = "tests/test_lanegate_windows.py"
    deps: tuple[str, ...] = ()
    config: dict[str, str] = field(default_factory=dict)  # files added to the base commit
    # files the base commit drops, as its maintainers would on the default branch (Lane A) before
    # any agent diff can pass: a retry construct lint flags fails every Lane B run (no exemption)
    lane_a_removed: tuple[str, ...] = ()


PROJECTS = (
    Project(
        "more-itertools",
        "10.5.0",
        "5482bfef7849c25dc3c6dd53a6173ae4795da2a41a80faea6700d9f5846c5da6",
        "unittest-style suite (112 *Tests classes)",
        "more_itertools/more.py",
        "more_itertools.more",
        unittest_style=True,
    ),
    Project(
        "markupsafe",
        "3.0.2",
        "ee55d3edf80167e48ea11a923c7386f4669df67d7994554387f84e7d8b0a2bf0",
        "C extension with a pure-Python fallback, src layout, warnings as errors",
        "src/markupsafe/_native.py",
        "markupsafe._native",
    ),
    Project(
        "cachetools",
        "5.5.0",
        "2cc24fb4cbe39633fb7badd9db9ca6295d766d9c2995f245725a46715d050f2a",
        "code in a thread pool, src layout, unittest classes, xdist in addopts (added)",
        "src/cachetools/keys.py",
        "cachetools.keys",
        unittest_style=True,
        threads=True,
        config={"pytest.ini": "[pytest]\naddopts = -n auto\ntestpaths = tests\n"},
    ),
    Project(
        "pyrsistent",
        "0.20.0",
        "4c48f78f62ab596c679086084d0dd13254ae4f3d6c72a83ffdf5ebdef8f265a4",
        "C extension with a fallback, *_test.py files, Hypothesis tests",
        "pyrsistent/_helpers.py",
        "pyrsistent._helpers",
        test_file="tests/lanegate_windows_test.py",
        # its PyPy segfault regression loop retries a random step until it raises no
        # AttributeError (`while True: try: step(); break / except AttributeError: continue`):
        # `test-retry-loop` is right that the loop re-runs a failing act, so the base drops it
        lane_a_removed=("tests/regression_test.py",),
    ),
    Project(
        "python-dateutil",
        "2.9.0.post0",
        "37dd54208da7e1cd875388217d5e00ebd4179249f90fb72437e91a35459a0ad3",
        "setup.cfg python_files and -W error, src layout, Hypothesis property tests",
        "src/dateutil/utils.py",
        "dateutil.utils",
        # pytest 8: under its `-W error`, pytest 9's deprecation of generator parametrize values
        # stops collection of tests/test_isoparser.py (the released sdist predates pytest 9)
        deps=("six", "freezegun", "pytest>=8,<9"),
    ),
    Project(
        "attrs",
        "24.2.0",
        "5cfb1b9148b5b086569baec03f20d7b6bf3bcacc9a42bebf87ffaaca362f6346",
        "Hypothesis-heavy suite, --strict-markers --strict-config, src layout",
        "src/attr/_funcs.py",
        "attr._funcs",
        deps=("cloudpickle", "pympler"),
    ),
)
SMOKE = ("more-itertools",)
# the sdists outlive the (temporary) work directory: every download is checked against its pin
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "lanegate-real-projects"

FUNCTION = '''

def lanegate_window_sums(items, k):
    """Sums of every window of `k` consecutive items (added by benchmarks/real_projects.py)."""
    total = 0
    out = []
    for i, x in enumerate(items):
        total += x
        if i >= k:
            total -= items[i - k]
        if i >= k - 1:
            out.append(total)
    return out
'''
THREADED = '''

def lanegate_window_sums_rows(rows, k):
    """`lanegate_window_sums` of every row, computed in a thread pool."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda row: lanegate_window_sums(row, k), rows))
'''
BUG = ("total -= items[i - k]", "total -= items[i - k + 1]")


def _test_source(project: Project, honest_oracle: bool) -> str:
    name = "lanegate_window_sums_rows" if project.threads else "lanegate_window_sums"
    if project.threads:
        strategy = "st.lists(st.lists(st.integers(-5, 5), max_size=6), max_size=3)"
        reference = (
            "lambda rows, k: [[sum(r[i:i + k]) for i in range(len(r) - k + 1)] for r in rows]"
        )
    else:
        strategy = "st.lists(st.integers(-5, 5), max_size=8)"
        reference = "lambda xs, k: [sum(xs[i:i + k]) for i in range(len(xs) - k + 1)]"
    body = (
        f"equivalent({name}, {reference}, items, k)"
        if honest_oracle
        else f"assert {name}(items, k) == {name}(items, k)"
    )
    header = (
        "from hypothesis import given, strategies as st\n\n"
        "from lanegate.oracles import equivalent\n"
        f"from {project.import_path} import {name}\n"
    )
    given = f"@given({strategy}, st.integers(1, 4))"
    if project.unittest_style:
        return (
            f"import unittest\n\n{header}\n\nclass LanegateWindowSumsTests(unittest.TestCase):\n"
            f"    {given}\n    def test_matches_reference(self, items, k):\n        {body}\n"
        )
    return f"{header}\n\n{given}\ndef test_matches_reference(items, k):\n    {body}\n"


HEADS = {
    # head name -> (bug in the function, the test calls an oracle, expected verdict, rule ids)
    "honest": (False, True, "pass", frozenset()),
    "wrong-bug": (True, True, "fail", frozenset({"property-cases-failed"})),
    "wrong-oracle": (False, False, "fail", frozenset({"property-missing-oracle"})),
}


class BenchError(Exception):
    """The benchmark could not set a project up (download, hash, install)."""


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stdout + done.stderr).strip().splitlines()[-5:]
        raise BenchError(f"{' '.join(cmd[:4])}... exited {done.returncode}: {' | '.join(tail)}")
    return done.stdout


def fetch(project: Project, cache: Path) -> Path:
    """The project's sdist from the package index, its sha256 checked against the pin."""
    cache.mkdir(parents=True, exist_ok=True)
    spec = f"{project.name}=={project.version}"
    found = [p for p in cache.glob("*.tar.gz") if _sha256(p) == project.sha256]
    if not found:
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-binary",
                ":all:",
                "--no-deps",
                "-d",
                str(cache),
                spec,
            ],
            cache,
        )
        found = [p for p in cache.glob("*.tar.gz") if _sha256(p) == project.sha256]
    if not found:
        raise BenchError(f"{spec}: no downloaded sdist has the pinned sha256 {project.sha256}")
    return found[0]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _git(repo: Path, *args: str) -> None:
    _run(["git", "-C", str(repo), *args], repo, {**os.environ, **GIT_ENV})


def build_repo(project: Project, sdist: Path, dest: Path) -> Path:
    """The sdist as the base commit on `main`, and one branch per head."""
    with tarfile.open(sdist) as archive:
        archive.extractall(dest, filter="data")
    (top,) = [p for p in dest.iterdir() if p.is_dir()]
    repo = top.rename(dest / "repo")
    shutil.rmtree(repo / ".github", ignore_errors=True)
    (repo / "lanegate.toml").write_text(POLICY, encoding="utf-8")
    for rel, text in project.config.items():
        (repo / rel).write_text(text, encoding="utf-8")
    for rel in project.lane_a_removed:
        (repo / rel).unlink()
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", f"{project.name} {project.version} as released")
    module = repo / project.module
    original = module.read_text(encoding="utf-8")
    for head, (bug, oracle, _, _) in HEADS.items():
        _git(repo, "checkout", "-q", "-b", head, "main")
        code = FUNCTION.replace(*BUG) if bug else FUNCTION
        module.write_text(original + code + (THREADED if project.threads else ""), "utf-8")
        test = repo / project.test_file
        test.write_text(_test_source(project, oracle), encoding="utf-8")
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "-m", f"agent: add lanegate_window_sums ({head})")
    _git(repo, "checkout", "-q", "main")
    return repo


def make_env(project: Project, repo: Path, work: Path) -> Path:
    """A venv that sees this interpreter's packages (lanegate, pytest, Hypothesis) after its own,
    with the project installed in editable mode and its test dependencies."""
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], work)
    python = venv / "bin" / "python"
    purelib = _run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], work
    )
    parents = [p for p in site.getsitepackages() if Path(p).is_dir()]
    lines = "".join(f"import site; site.addsitedir({p!r})\n" for p in parents)
    Path(purelib.strip(), "lanegate-bench-parent.pth").write_text(lines, encoding="utf-8")
    # the project first: a test dependency may need it to build (freezegun imports dateutil)
    _run([str(python), "-m", "pip", "install", "-q", "-e", "."], repo)
    if project.deps:
        _run([str(python), "-m", "pip", "install", "-q", *project.deps], repo)
        # a dependency may pull the project's released wheel over the editable install (freezegun
        # requires python-dateutil, and an sdist without git metadata builds as version 0.0)
        _run([str(python), "-m", "pip", "install", "-q", "--no-deps", "-e", "."], repo)
    return python


@dataclass(frozen=True, slots=True)
class Measured:
    """One measured command: exit code, wall and CPU seconds (all processes), peak resident memory
    of any one process."""

    code: int
    seconds: float
    cpu: float
    peak_mb: float
    stdout: str
    progress: tuple[tuple[float, str], ...] = ()  # (seconds since start, stderr line)


MEASURE = """\
import json, resource, subprocess, sys, threading, time
out = sys.argv[1]
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
lines = []
def read_progress():
    for line in proc.stderr:
        lines.append([time.perf_counter() - start, line.rstrip()[:300]])
reader = threading.Thread(target=read_progress)
reader.start()
stdout = proc.stdout.read()
proc.wait()
reader.join()
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
seconds = time.perf_counter() - start
json.dump({"code": proc.returncode, "seconds": seconds, "peak_mb": usage.ru_maxrss / 1024,
           "cpu": usage.ru_utime + usage.ru_stime, "stdout": stdout, "progress": lines[-400:]},
          open(out, "w"))
"""


def measured(cmd: list[str], cwd: Path) -> Measured:
    """Run `cmd` under a small parent that reports its children's peak resident memory."""
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp) / "m.json"
        env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "CI")}
        subprocess.run(
            [sys.executable, "-c", MEASURE, str(result), *cmd], cwd=cwd, env=env, check=False
        )
        data = json.loads(result.read_text(encoding="utf-8"))
    progress = tuple((float(t), str(line)) for t, line in data.get("progress", []))
    return Measured(
        data["code"], data["seconds"], data["cpu"], data["peak_mb"], data["stdout"], progress
    )


# `lanegate run`'s progress lines (stderr, not a terminal) that mark the property lane's phases; the
# head's run starts with the base suite (the progress line saying so is throttled away)
MARKS = (
    ("base", "property: runs 0 of 1: base tests at head"),
    ("oracle", "property: oracle check"),
    ("mutants", "property: mutants"),
)


def phases(run: Measured) -> str:
    """Where `lanegate run` spent its wall time, from the arrival times of its progress lines: the
    property lane's head run (the traced process of the diff's tests), the base suite beside it
    (the base's tests at head, traced, with the rerun at base of any that failed) until the mutants
    start, the mutants and canaries; then each lane and step as a whole."""
    at: dict[str, float] = {}
    for name, prefix in MARKS:
        hit = next((t for t, line in run.progress if line.startswith("lanegate: " + prefix)), None)
        if hit is not None:
            at[name] = hit
    ended = next(
        (
            t
            for t, line in run.progress
            if line.startswith("lanegate: property: ")
            and " in " in line
            and line.split(": ")[2].split(" ")[0] in ("pass", "fail", "error", "internal-error")
        ),
        None,
    )
    if ended is not None:
        at["end"] = ended
    parts = []
    for label, start, until in (
        ("head run", "base", "oracle"),
        ("base suite and rerun, until the mutants", "base", "mutants"),
        ("mutants", "mutants", "end"),
    ):
        if start in at and until in at:
            parts.append(f"{label} {at[until] - at[start]:.1f}")
    steps = []
    for _, line in run.progress:
        words = line.removeprefix("lanegate: ").split(" ")
        seconds = words[3].rstrip(":") if len(words) >= 4 else ""
        if words[0].endswith(":") and words[2:3] == ["in"] and seconds.endswith("s"):
            steps.append(f"{words[0][:-1]} {seconds[:-1]}")
    return f"property phases (s): {', '.join(parts) or '-'}; steps (s): {', '.join(steps) or '-'}"


def judge(project: Project, work: Path, cache: Path) -> list[str]:
    """Set one project up, judge every head; returns the problems (empty: as expected)."""
    sdist = fetch(project, cache)
    repo = build_repo(project, sdist, work)
    python = make_env(project, repo, work)
    problems: list[str] = []
    print(f"\n== {project.name} {project.version}: {project.covers}", flush=True)
    for head, (_, _, verdict, rules) in HEADS.items():
        _git(repo, "checkout", "-q", head)
        plain = measured([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"], repo)
        run = measured(
            [
                str(python),
                "-m",
                "lanegate",
                "run",
                "--base",
                "main",
                "--format",
                "json",
                "--out",
                str(work / f"out-{head}"),
            ],
            repo,
        )
        try:
            report = json.loads(run.stdout)
        except ValueError:
            problems.append(f"{project.name} {head}: no report (lanegate exit {run.code})")
            continue
        got = report.get("verdict")
        ids = sorted({f["rule_id"] for f in report.get("fails", [])})
        ok = got == verdict and (rules <= set(ids) if rules else not ids)
        mutant_seconds = _mutant_seconds(work / f"out-{head}" / "property.json")
        # the target: run <= 3 x plain + the mutants' own test time; so the ratio it bounds by 3 is
        # (run - mutants' test time) / plain (the mutants' seconds are summed over the workers)
        ratio = (run.seconds - mutant_seconds) / max(plain.seconds, 1e-9)
        print(
            f"  {head:<13} {got:<5} (expected {verdict}"
            f"{', ' + ', '.join(sorted(rules)) if rules else ''}) rules: {', '.join(ids) or '-'}"
            f" | run {run.seconds:6.1f} s, plain suite {plain.seconds:5.1f} s, mutants' tests "
            f"{mutant_seconds:5.1f} s: (run - mutants) / plain = {ratio:4.1f}x (target <= 3.0x; "
            f"run / plain {run.seconds / max(plain.seconds, 1e-9):4.1f}x; CPU {run.cpu:5.1f} s "
            f"vs {plain.cpu:5.1f} s) | peak {run.peak_mb:6.0f} MB vs {plain.peak_mb:4.0f} MB "
            f"({run.peak_mb / plain.peak_mb:3.1f}x)" + ("" if ok else "  <-- NOT AS EXPECTED"),
            flush=True,
        )
        print(f"    {phases(run)}; load {os.getloadavg()[0]:.1f}", flush=True)
        pre = _pre_existing(work / f"out-{head}" / "property.json")
        if pre:
            print(f"    pre-existing base failures (not counted): {', '.join(pre)}", flush=True)
        if not ok:
            problems.append(f"{project.name} {head}: {got} with {ids or 'no rule'}")
            # why: a lane that wrote no ledger says so on stderr, which the line above leaves out
            for _, line in run.progress:
                if line.startswith(("lanegate: error:", "lanegate: internal error:")):
                    print(f"    {line}", flush=True)
        if plain.code != 0 and head == "honest":
            # not a lanegate problem: the project's own suite fails somewhere in this environment
            # (tests the heads do not touch); the verdicts above must hold all the same
            print(f"  note: the plain suite itself exits {plain.code} here", flush=True)
    return problems


def _pre_existing(ledger: Path) -> list[str]:
    try:
        data = json.loads(ledger.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [r["node_id"] for r in data.get("base_rechecks", []) if r["verdict"] == "pre-existing"]


def _mutant_seconds(ledger: Path) -> float:
    try:
        data = json.loads(ledger.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0.0
    return float(sum(m.get("seconds", 0.0) for m in data.get("mutants", [])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="one small project (CI)")
    parser.add_argument("--only", nargs="*", default=None, help="project names")
    parser.add_argument("--work", type=Path, default=None, help="keep the work here")
    parser.add_argument(
        "--cache",
        type=Path,
        default=CACHE,
        help=f"downloaded sdists, reused across runs (sha256-checked; default {CACHE})",
    )
    args = parser.parse_args()
    names = set(SMOKE if args.smoke else args.only or [p.name for p in PROJECTS])
    unknown = names - {p.name for p in PROJECTS}
    if unknown:
        parser.error(f"unknown project(s): {', '.join(sorted(unknown))}")
    work = args.work or Path(tempfile.mkdtemp(prefix="lanegate-real-"))
    work.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for project in PROJECTS:
        if project.name not in names:
            continue
        where = work / project.name
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir()
        try:
            problems += judge(project, where, args.cache)
        except BenchError as exc:
            problems.append(f"{project.name}: {exc}")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    print()
    for problem in problems:
        print(f"problem: {problem}")
    print("every verdict as expected" if not problems else f"{len(problems)} problem(s)")
    return 0 if not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
