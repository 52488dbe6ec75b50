"""Benchmark `lanegate lint` against `zizmor --offline` on the same generated corpus, in one run.

Generates N realistic workflow files (mixed sizes; some with anchors and aliases, some calling local
composite actions, about one in ten with a retry construct) under `.github/workflows` of a temporary
repository, then times both linters as subprocesses (best of --repeat runs each), prints files/s and
the ratio lanegate/zizmor (<= 1.0 means lanegate is no slower) in wall-clock and in CPU seconds (CPU
is steadier on a shared machine; wall clock also shows lanegate's worker processes), and checks linear
scaling by timing both on a corpus of 2N files too.

Then times lanegate alone on pathological inputs, each at full and half size (linear: the ratio is
about 2): 10,000 steps with ids and outcome conditions, a 2 MB `||` chain, 1,000 chained local
actions, 2,000 test helpers each handing on the next one's result, 10,000 nested shell blocks. Each must take under 2 s of CPU (the process and its workers; wall clock is printed too, but
on a shared machine it measures the neighbours as much as lanegate).

Last, a large generated repository (600 test modules of 30 tests, about sqlalchemy's size, with
helpers, nested helpers, loops and `try` blocks, 40 workflows): the whole-repository lint against
2 x zizmor on its `.github` + 5 s, and the gate's lint of a five-module change (`--large-only` runs
this part alone).

    python benchmarks/lint_bench.py [--smoke] [--files N] [--repeat R] [--large-only]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ACTIONS = 20
SETUP = [
    "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n        with:\n          persist-credentials: false\n",
    "      - uses: actions/setup-python@0b93645e9fea7318ecaed2b359559ac225c90a2b # v5.3.0\n        with:\n          python-version: ${{ matrix.python }}\n          cache: pip\n",
    "      - name: Install\n        run: |\n          python -m pip install --upgrade pip\n          python -m pip install -e '.[test]'\n          pip list\n",
]
RUNS = [
    "      - name: Tests\n        run: python -m pytest -q --cov=src --cov-report=xml tests/\n",
    "      - name: Lint\n        run: |\n          ruff check src tests\n          ruff format --check src tests\n          mypy src\n",
    "      - name: Build\n        run: |\n          python -m build\n          twine check dist/*\n",
    "      - name: Docs\n        run: |\n          cd docs\n          make html SPHINXOPTS='-W --keep-going'\n",
    "      - name: Integration\n        env:\n          DATABASE_URL: postgres://postgres:postgres@localhost:5432/test\n        run: |\n          until pg_isready -h localhost; do sleep 1; done\n          pytest tests/integration -m 'not slow' -x\n",
    "      - uses: actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02 # v4.6.2\n        if: failure()\n        with:\n          name: logs-${{ matrix.python }}-${{ github.run_attempt }}\n          path: '*.log'\n",
    "      - uses: codecov/codecov-action@0565863a31f2c772f9f0395002a31e3f06189574 # v5.4.0\n        with:\n          files: coverage.xml\n          fail_ci_if_error: true\n",
]
RETRIES = [
    "      - uses: nick-fields/retry@ce71cc2ab81d554ebbe88c79ab5975992d79ba08 # v3.0.2\n        with:\n          max_attempts: 3\n          timeout_minutes: 10\n          command: pytest -q\n",
    "      - run: pytest -q || pytest -q --lf\n",
    "      - run: pytest --reruns 2 tests/\n        continue-on-error: true\n",
    "      - run: |\n          for i in 1 2 3; do\n            pytest && break\n          done\n",
]
ANCHORED = "x-env: &common-env\n  PYTHONDONTWRITEBYTECODE: '1'\n  FORCE_COLOR: '1'\n"


def _job(rng: random.Random, name: str, steps: int, anchors: bool, retry: bool) -> str:
    lines = [
        f"  {name}:\n",
        "    runs-on: ${{ matrix.os }}\n",
        "    timeout-minutes: 30\n",
        "    permissions:\n      contents: read\n",
    ]
    if anchors:
        lines.append("    env: *common-env\n")
    lines.append(
        "    strategy:\n      fail-fast: false\n      matrix:\n        os: [ubuntu-latest, macos-latest]\n        python: ['3.11', '3.12', '3.13']\n"
    )
    lines.append("    steps:\n")
    lines.extend(SETUP)
    lines.extend(rng.choice(RUNS) for _ in range(steps))
    if rng.random() < 0.3:
        lines.append(f"      - uses: ./.github/actions/act_{rng.randrange(ACTIONS):02d}\n")
    if retry:
        lines.insert(len(lines) - rng.randrange(1, steps + 1), rng.choice(RETRIES))
    return "".join(lines)


def workflow(rng: random.Random, index: int) -> str:
    size = rng.choices(["small", "medium", "large"], weights=[5, 4, 1])[0]
    jobs, steps = {"small": (1, 2), "medium": (3, 5), "large": (6, 12)}[size]
    anchors = rng.random() < 0.2
    retry = rng.random() < 0.1
    head = f"name: workflow {index}\non:\n  push:\n    branches: [main]\n  pull_request:\npermissions: {{}}\n"
    if anchors:
        head += ANCHORED
    body = "jobs:\n" + "".join(
        _job(rng, f"job_{j}", steps, anchors, retry and j == 0) for j in range(jobs)
    )
    return head + body


def composite(index: int) -> str:
    return (
        f"name: action {index}\ndescription: shared steps {index}\nruns:\n  using: composite\n  steps:\n"
        "    - run: python -m pip install -e .\n      shell: bash\n"
        "    - run: python -m pytest -q tests/unit\n      shell: bash\n"
    )


def generate(root: Path, files: int, seed: int = 20260101) -> Path:
    """A repository with `files` workflows and ACTIONS local composite actions."""
    rng = random.Random(seed)
    workflows = root / ".github" / "workflows"
    workflows.mkdir(parents=True)
    for index in range(files):
        (workflows / f"wf_{index:05d}.yml").write_text(workflow(rng, index), encoding="utf-8")
    for index in range(ACTIONS):
        action = root / ".github" / "actions" / f"act_{index:02d}"
        action.mkdir(parents=True)
        (action / "action.yml").write_text(composite(index), encoding="utf-8")
    return root


@dataclass(frozen=True)
class Timing:
    """Best wall-clock seconds and best CPU seconds (user + sys of the process and its workers)."""

    wall: float
    cpu: float


def _time(command: list[str], repeat: int) -> Timing:
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False
        )
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode not in (0, 1) and not (
            command[0].endswith("zizmor") and done.returncode in range(10, 20)
        ):
            raise SystemExit(
                f"{command[0]} failed with exit {done.returncode}: {done.stderr.decode()[-500:]}"
            )
        best, best_cpu = min(best, elapsed), min(best_cpu, cpu)
    return Timing(best, best_cpu)


def lanegate_command(root: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "lanegate",
        "lint",
        str(root),
        "--format",
        "json",
        "--output",
        str(out),
    ]


def zizmor_command(root: Path) -> list[str]:
    zizmor = Path(sys.executable).with_name("zizmor")
    found = str(zizmor) if zizmor.exists() else shutil.which("zizmor")
    if found is None:
        raise SystemExit("zizmor not found next to the interpreter or on PATH: pip install zizmor")
    return [found, "--offline", "--no-progress", "--format", "json", str(root)]


PATHOLOGICAL_LIMIT_SECONDS = 2.0
_WORKFLOW_HEAD = (
    "on: pull_request\npermissions: {}\njobs:\n  t:\n    runs-on: ubuntu-latest\n    steps:\n"
)


def steps_with_ids(root: Path, steps: int) -> Path:
    """One workflow: `steps` test steps with ids, each gated on the previous one's outcome."""
    lines = [_WORKFLOW_HEAD]
    for index in range(steps):
        gate = f"        if: steps.s{index - 1}.outcome == 'failure'\n" if index else ""
        lines.append(
            f"      - id: s{index}\n{gate}        run: pytest -k t{index}\n        continue-on-error: true\n"
        )
    path = root / ".github" / "workflows" / "ids.yml"
    path.parent.mkdir(parents=True)
    path.write_text("".join(lines), encoding="utf-8")
    return root


def or_chain(root: Path, size: int) -> Path:
    """One workflow whose only step is `pytest || pytest || ... || true`, `size` bytes long."""
    links = max(1, (size - 200) // len("pytest || "))
    path = root / ".github" / "workflows" / "chain.yml"
    path.parent.mkdir(parents=True)
    path.write_text(_WORKFLOW_HEAD + "      - run: " + "pytest || " * links + "true\n", "utf-8")
    return root


def chained_actions(root: Path, actions: int) -> Path:
    """A workflow using local action a0, which uses a1, ..., up to a{actions-1}, which runs pytest."""
    for index in range(actions):
        step = (
            f"    - uses: ./.github/actions/a{index + 1}\n"
            if index + 1 < actions
            else "    - run: pytest || true\n      shell: bash\n"
        )
        action = root / ".github" / "actions" / f"a{index}" / "action.yml"
        action.parent.mkdir(parents=True)
        action.write_text(f"runs:\n  using: composite\n  steps:\n{step}", encoding="utf-8")
    path = root / ".github" / "workflows" / "chain.yml"
    path.parent.mkdir(parents=True)
    path.write_text(_WORKFLOW_HEAD + "      - uses: ./.github/actions/a0\n", encoding="utf-8")
    return root


def chained_helpers(root: Path, helpers: int) -> Path:
    """A test module whose helper f0 hands on f1's result, ..., f{helpers-1} swallows a failure, and
    a test retrying f0: which helpers swallow is found along the whole chain."""
    parts = [f"def f{i}():\n    return f{i + 1}()\n" for i in range(helpers - 1)]
    parts.append(
        f"def f{helpers - 1}():\n    try:\n        return act()\n    except Exception:\n        return False\n"
    )
    parts.append("def test_x():\n    for _ in range(3):\n        if f0():\n            break\n")
    path = root / "tests" / "test_chain.py"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(parts), encoding="utf-8")
    return root


def nested_shell_blocks(root: Path, blocks: int) -> Path:
    """A `run:` script of `blocks` nested `while`/`if` blocks around a rerun fallback."""
    opens = "".join(
        f"          {'if true; then' if i % 2 else 'while true; do'}\n" for i in range(blocks)
    )
    closes = "".join(f"          {'fi' if i % 2 else 'done'}\n" for i in reversed(range(blocks)))
    path = root / ".github" / "workflows" / "nested.yml"
    path.parent.mkdir(parents=True)
    text = _WORKFLOW_HEAD + "      - run: |\n" + opens + "          pytest || pytest\n" + closes
    path.write_text(text, encoding="utf-8")
    return root


PATHOLOGICAL = (
    ("10,000 steps with ids", steps_with_ids, 10_000),
    ("2 MB || chain", or_chain, 2_000_000),
    ("1,000 chained local actions", chained_actions, 1_000),
    ("2,000 chained test helpers", chained_helpers, 2_000),
    ("10,000 nested shell blocks", nested_shell_blocks, 10_000),
)


TEST_FUNCTION = """

def _probe_{i}(path):
    try:
        return path.exists()
    except OSError:
        return False


def test_case_{i}(tmp_path):
    def attempt():
        try:
            return _probe_{i}(tmp_path)
        except ValueError:
            return False

    for name in ("a", "b", "c"):
        if not attempt():
            continue
        (tmp_path / name).write_text(name)
    values = [_probe_{i}(tmp_path / n) for n in ("x", "y")]
    total = 0
    while total < 3:
        try:
            total += len(values)
        except TypeError:
            break
    assert _probe_{i}(tmp_path) in (True, False)
"""


def test_module(functions: int) -> str:
    """A test module of `functions` tests with helpers, nested helpers, loops and `try` blocks."""
    head = "import os\nimport pytest\n"
    return head + "".join(TEST_FUNCTION.format(i=i) for i in range(functions))


def large_repository(root: Path, modules: int, functions: int) -> Path:
    """A repository the size of a large project: `modules` test modules of `functions` tests each
    under tests/, 40 workflows and the local actions, committed on main with a small change on top
    (five test modules touched) for the gate's lint."""
    generate(root, 40)
    for index in range(modules):
        folder = root / "tests" / f"pkg{index // 100:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"test_mod{index:05d}.py").write_text(test_module(functions))
    (root / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    env = {
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@b",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@b",
        "PATH": os.environ.get("PATH", ""),
    }
    for args in (
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["commit", "-qm", "base"],
        ["checkout", "-qb", "pr"],
    ):
        subprocess.run(["git", "-C", str(root), *args], check=True, env=env)
    for index in range(5):
        path = root / "tests" / "pkg000" / f"test_mod{index:05d}.py"
        path.write_text(path.read_text() + "\n\ndef test_added():\n    assert True\n")
    for args in (["add", "-A"], ["commit", "-qm", "pr"]):
        subprocess.run(["git", "-C", str(root), *args], check=True, env=env)
    return root


def _supports_gate() -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "lanegate", "lint", "--help"], capture_output=True, text=True
    )
    return "--gate" in done.stdout


def large(base: Path, repeat: int, modules: int, functions: int) -> None:
    """Whole-repository lint of a large generated repository next to zizmor on its `.github`, and
    the gate's lint (`--gate --base main`) when this lanegate has it."""
    root = large_repository(base / "large", modules, functions)
    out = base / "large.json"
    whole = _time(lanegate_command(root, out), repeat)
    zizmor = _time(zizmor_command(root / ".github"), repeat)
    bound = 2 * zizmor.wall + 5
    print(
        f"large repository: {modules} test modules x {functions} tests + 40 workflows; best of {repeat}"
    )
    print(
        f"lanegate lint (whole repository) {whole.wall:6.3f} s wall {whole.cpu:6.3f} s cpu;"
        f" zizmor .github {zizmor.wall:6.3f} s wall; bound 2 x zizmor + 5 s = {bound:.3f} s"
        f" ({'within' if whole.wall <= bound else 'OVER'})"
    )
    if _supports_gate():
        gate = _time([*lanegate_command(root, out), "--gate", "--base", "main"], repeat)
        print(f"lanegate lint --gate --base main   {gate.wall:6.3f} s wall {gate.cpu:6.3f} s cpu")


def pathological(base: Path, repeat: int, scale: float = 1.0) -> bool:
    """Time each pathological input at full and half size; False when one takes 2 s or more."""
    ok = True
    out = base / "pathological.json"
    for label, build, size in PATHOLOGICAL:
        full = max(2, int(size * scale))
        t_full = _time(lanegate_command(build(base / f"{build.__name__}-1", full), out), repeat)
        t_half = _time(
            lanegate_command(build(base / f"{build.__name__}-h", full // 2), out), repeat
        )
        within = t_full.cpu < PATHOLOGICAL_LIMIT_SECONDS
        ok = ok and within
        print(
            f"{label:<28} {t_full.wall:6.3f} s wall {t_full.cpu:6.3f} s cpu; half size {t_half.wall:6.3f} s;"
            f" {t_half.cpu:6.3f} s cpu; cpu t(N)/t(N/2) {t_full.cpu / t_half.cpu:.2f}"
            f" ({'under' if within else 'OVER'} {PATHOLOGICAL_LIMIT_SECONDS:.0f} s cpu)"
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="tiny corpus, one run each")
    parser.add_argument(
        "--files", type=int, default=1200, help="workflow files in the corpus (default 1200)"
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per measurement; the best is kept"
    )
    parser.add_argument(
        "--large-only",
        action="store_true",
        help="only the large-repository measurement (test modules, whole repository and gate)",
    )
    args = parser.parse_args(argv)
    modules, functions = (20, 5) if args.smoke else (600, 30)
    if args.large_only:
        with tempfile.TemporaryDirectory() as tmp:
            large(Path(tmp), 1 if args.smoke else args.repeat, modules, functions)
        return 0
    files, repeat = (40, 1) if args.smoke else (args.files, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        single = generate(base / "n", files)
        double = generate(base / "2n", 2 * files)
        out = base / "lint.json"
        lanegate_n = _time(lanegate_command(single, out), repeat)
        report = json.loads(out.read_text(encoding="utf-8"))
        zizmor_n = _time(zizmor_command(single), repeat)
        lanegate_2n = _time(lanegate_command(double, out), repeat)
        zizmor_2n = _time(zizmor_command(double), repeat)
        bounded = pathological(base, repeat, 0.05 if args.smoke else 1.0)
        large(base, repeat, modules, functions)
    scanned = report["files_scanned"]
    findings = len(report["findings"])
    print(
        f"corpus: {files} workflows + {ACTIONS} composite actions ({scanned} files scanned by lanegate, {findings} findings); best of {repeat}"
    )
    for label, t_n, t_2n in (
        ("lanegate lint", lanegate_n, lanegate_2n),
        ("zizmor --offline", zizmor_n, zizmor_2n),
    ):
        print(
            f"{label:<17} N: {t_n.wall:6.3f} s wall {t_n.cpu:6.3f} s cpu ({files / t_n.wall:,.0f} files/s)"
            f"   2N: {t_2n.wall:6.3f} s wall {t_2n.cpu:6.3f} s cpu ({2 * files / t_2n.wall:,.0f} files/s)"
        )
    print(
        f"ratio lanegate/zizmor at N={files}: {lanegate_n.wall / zizmor_n.wall:.2f} wall, {lanegate_n.cpu / zizmor_n.cpu:.2f} cpu (<= 1.00: lanegate no slower)"
    )
    print(
        f"ratio lanegate/zizmor at 2N={2 * files}: {lanegate_2n.wall / zizmor_2n.wall:.2f} wall, {lanegate_2n.cpu / zizmor_2n.cpu:.2f} cpu"
    )
    print(
        f"scaling lanegate t(2N)/t(N): {lanegate_2n.wall / lanegate_n.wall:.2f} wall, {lanegate_2n.cpu / lanegate_n.cpu:.2f} cpu (linear: 2.00 minus fixed start-up)"
    )
    print(
        f"scaling zizmor   t(2N)/t(N): {zizmor_2n.wall / zizmor_n.wall:.2f} wall, {zizmor_2n.cpu / zizmor_n.cpu:.2f} cpu"
    )
    # the smoke run checks that everything runs; only a full run enforces the 2 s bound
    return 0 if bounded or args.smoke else 1


if __name__ == "__main__":
    raise SystemExit(main())
