from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks import flake_bench

from tests.benchsmoke import run_smoke

ROOT = Path(__file__).resolve().parents[3]


def test_flake_bench_smoke_runs_every_strategy() -> None:
    out = run_smoke("flake_bench.py")
    for name in ("(a) spec minimum", "(b) flakefinder", "(c) randomly", "(d) lanegate"):
        assert name in out
    assert "lanegate CPU vs spec minimum:" in out
    ours = next(line for line in out.splitlines() if line.startswith("(d) lanegate"))
    # The smoke modules hold only flakes the plan catches by construction, and no false positive.
    assert "100%" in ours and " 0/" in ours


def test_the_sandboxed_minimum_counts_the_cpu_of_the_sandboxed_replays_with_hypothesis_on() -> None:
    out = run_smoke(
        "flake_bench.py", "--no-baselines", "--sandboxed-minimum", "--hypothesis-plugin"
    )
    line = next(x for x in out.splitlines() if x.startswith("(a') spec minimum"))
    cpu = float(line.split(": ", 1)[1].split(" CPU s", 1)[0])
    # three pytest starts inside the sandbox: their CPU reaches the bench only through its
    # child-subreaper role (the sandbox's init is not the bench's child); 0 would mean lost
    assert cpu > 0.15, line
    assert "lanegate vs (a'):" in line
    assert "Hypothesis's pytest plugin on" in out


def _tiny_external_corpus(root: Path) -> None:
    """Three cases in an independent corpus's shape: one reads a file by a path relative to its
    own directory, one leaves an environment variable set that the next one asserts is unset."""
    cases = {
        "reads_cwd_a": (
            "reads_cwd_a.txt",
            "def test_reads():\n    assert open('reads_cwd_a.txt').read() == 'ok'\n",
        ),
        "sets_env_a": (None, "import os\n\ndef test_sets():\n    os.environ['BENCH_LEAK'] = '1'\n"),
        "wants_env_a": (
            None,
            "import os\n\ndef test_unset():\n    assert 'BENCH_LEAK' not in os.environ\n",
        ),
    }
    manifest = []
    for case, (data, code) in cases.items():
        (root / "cases" / case).mkdir(parents=True)
        (root / "cases" / case / f"test_{case}.py").write_text(code, encoding="utf-8")
        if data is not None:
            (root / "cases" / case / data).write_text("ok", encoding="utf-8")
        name = code.split("def ", 1)[1].split("(", 1)[0]
        manifest.append(
            f'[[case]]\nid = "{case}"\nnode_id = "test_{case}.py::{name}"\nflaky = false\n'
            'class = "layout"\n'
        )
    (root / "manifest.toml").write_text("\n".join(manifest), encoding="utf-8")


def test_case_layout_runs_each_case_alone_from_its_own_directory(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks import flake_bench

    root = tmp_path / "corpus"
    _tiny_external_corpus(root)
    work = tmp_path / "work"
    work.mkdir()
    (work / "bench_outcomes.py").write_text(flake_bench.OUTCOME_PLUGIN, encoding="utf-8")
    corpus = flake_bench.independent_corpus("tiny", root, "case")
    assert corpus is not None
    names = {t.node_id for t in corpus.tests}
    seen: dict[str, dict[str, list[str]]] = {}
    for layout in flake_bench.LAYOUTS:
        built = flake_bench.independent_corpus("tiny", root, layout)
        assert built is not None
        repos = built.build(work / layout)
        seen[layout] = {}
        for k, repo in enumerate(repos):
            args = ["-p", "no:randomly"]  # file order: the env var's setter runs first
            got = flake_bench._pytest_outcomes(repo, work, args, {}, f"{layout}{k}")
            seen[layout].update(got)
        assert len(repos) == (3 if layout == "case" else 1)
    # one repository (and one pytest process) per case, run from the case's own directory
    assert seen["case"] == dict.fromkeys(names, ["passed"])
    # the half layout: one process from the repository's root (the relative path misses; the
    # earlier case's environment variable reaches the later one)
    assert seen["half"]["reads_cwd_a/test_reads_cwd_a.py::test_reads"] == ["failed"]
    assert seen["half"]["wants_env_a/test_wants_env_a.py::test_unset"] == ["failed"]


def test_stable_only_runs_the_lane_on_the_look_alikes_alone(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks import flake_bench

    root = tmp_path / "corpus"
    _tiny_external_corpus(root)
    # a look-alike labelled stable that is not: the lane must flag it, or it did not run
    (root / "cases" / "coin_a").mkdir()
    (root / "cases" / "coin_a" / "test_coin_a.py").write_text(
        "import random\n\ndef test_coin():\n    assert random.random() < 0.5\n", encoding="utf-8"
    )
    manifest = root / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    text += '\n[[case]]\nid = "coin_a"\nnode_id = "test_coin_a.py::test_coin"\nflaky = false\n'
    text += 'class = "random"\n'
    # the first case labelled flaky: its repository is left out, the others are judged
    manifest.write_text(text.replace("flaky = false", "flaky = true", 1), encoding="utf-8")
    corpus = flake_bench.independent_corpus("tiny", root, "case")
    assert corpus is not None
    (result,) = flake_bench.stable_only(corpus, 1)
    assert (result.flaky_total, result.stable_total) == (0, 3)
    assert result.flagged_stable == ("coin_a/test_coin_a.py::test_coin",)
    assert result.false_positives == 1 and result.cpu_seconds > 0


def test_stable_only_spends_the_budget_it_is_given(tmp_path: Path, monkeypatch) -> None:
    sys.path.insert(0, str(ROOT))
    from benchmarks import flake_bench

    root = tmp_path / "corpus"
    _tiny_external_corpus(root)
    corpus = flake_bench.independent_corpus("tiny", root, "case")
    assert corpus is not None
    given: list[float | None] = []

    def recording(repo, work, tests, budget=None, tag="d"):  # type: ignore[no-untyped-def]
        """The lane itself is run by the test above; here only what it is asked to spend."""
        given.append(budget)
        stable = sum(not t.flaky for t in tests)
        return flake_bench.StrategyResult("(d)", 0, 0, 0, stable, 0.0, (), ())

    monkeypatch.setattr(flake_bench, "lanegate_plan", recording)
    flake_bench.stable_only(corpus, 1, 0.0)
    flake_bench.stable_only(corpus, 1)
    assert given and set(given[: len(given) // 2]) == {0.0}
    assert set(given[len(given) // 2 :]) == {None}


def test_bad_bench_arguments_are_one_line_refusals() -> None:
    script = str(ROOT / "benchmarks" / "flake_bench.py")
    for args, needle in [
        (["--curve", "0,half"], "--curve: expected comma-separated numbers, got '0,half'"),
        (["--stable-only", "--curve", "0.5"], "--stable-only runs no curve"),
        (["--budget", "0.5"], "--budget sets --stable-only's budget"),
        (["--stable-only", "--budget", "-1"], "--budget: expected a number >= 0, got -1"),
        (["--stable-only", "--budget", "x"], "--budget: invalid float value: 'x'"),
    ]:
        done = subprocess.run(
            [sys.executable, script, *args], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 2, (args, done.stderr)
        assert needle in done.stderr and "Traceback" not in done.stderr


def test_the_bench_warms_pytests_rewrite_cache_before_measuring() -> None:
    """The baselines run with PYTHONDONTWRITEBYTECODE=1; without a written rewrite cache every
    start of theirs would rewrite the installed plugins again."""
    assert flake_bench.warm_rewrite_cache() is True
    assert flake_bench._rewrite_cache_written()


def test_the_bench_compiles_lanegates_own_modules_before_measuring() -> None:
    """What only replays import (the flake plugin) would otherwise be compiled in every replay."""
    import importlib.util

    from lanegate.lanes.flake import plugin

    assert flake_bench.warm_lanegate_bytecode() is True
    assert Path(importlib.util.cache_from_source(plugin.__file__)).is_file()


def test_a_curve_point_shows_every_run_and_the_false_positives_of_any() -> None:
    def result(
        caught: int, cpu: float, flagged: tuple[str, ...] = ()
    ) -> flake_bench.StrategyResult:
        return flake_bench.StrategyResult("(d)", caught, 10, len(flagged), 8, cpu, (), flagged)

    point = flake_bench.CurvePoint(
        0.25,
        (result(1, 10.0), result(1, 10.0), result(1, 20.0)),
        (result(9, 15.0), result(8, 12.0, ("s/test_s.py::test_b",)), result(10, 30.0)),
    )
    assert point.shares == [0.9, 0.8, 1.0] and point.ratios == [1.5, 1.2, 1.5]
    assert point.line() == (
        "curve: repeat_budget_seconds=0.25 recall 90% (90, 80, 100) CPU 1.50x (1.50, 1.20, 1.50) "
        "false positives 1/8 in 3 runs: s/test_s.py::test_b"
    )
