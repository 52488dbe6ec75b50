"""Hash-seed runs in fresh interpreters (`lanes/flake/fresh.py`): real child processes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from lanegate.lanes.flake.dimensions import Dimension, run_pins
from lanegate.lanes.flake.fresh import (
    FreshResult,
    FreshTest,
    parse_report,
    real_file,
    report_line,
    run_child,
)

MODULE = """
import os, random, sys

def test_first_of_set():
    # a set of strings built at run time: its order follows the hash seed
    words = set("alpha beta gamma delta epsilon".split())
    assert next(iter(words)) == "alpha"

def test_sorted():
    assert sorted(set("alpha beta gamma".split()))[0] == "alpha"

def test_seeded_random():
    assert random.random() == random.Random(7).random()

def test_skips():
    import unittest
    raise unittest.SkipTest("not here")

def test_prints_and_exits():
    print("noise"); sys.stdout.flush()
    os._exit(0)

def test_after_exit():
    pass
"""


def _tests(tmp_path: Path, *names: str) -> list[FreshTest]:
    path = tmp_path / "fresh_mod.py"
    path.write_text(MODULE, encoding="utf-8")
    return [FreshTest("fresh_mod", real_file(str(path)), name, seed=7) for name in names]


def _run(tmp_path: Path, tests: list[FreshTest], seed: int) -> list[str]:
    path = [str(tmp_path), *sys.path]
    return [r.outcome for r in run_child(tests, seed, path=path, env=os.environ)]


def test_outcomes_follow_the_hash_seed_of_each_fresh_interpreter(tmp_path: Path) -> None:
    tests = _tests(tmp_path, "test_first_of_set", "test_sorted", "test_seeded_random")
    seen = [_run(tmp_path, tests, seed) for seed in range(12)]
    first = {run[0] for run in seen}
    assert first == {"passed", "failed"}  # the set's first element moved with the hash seed
    assert all(run[1:] == ["passed", "passed"] for run in seen)  # sorted; random seeded per test
    assert _run(tmp_path, tests, 3) == _run(tmp_path, tests, 3)  # a seed reproduces its run


def test_skips_early_exits_and_unreported_tests(tmp_path: Path) -> None:
    tests = _tests(tmp_path, "test_skips", "test_prints_and_exits", "test_after_exit")
    results = run_child(tests, 1, path=[str(tmp_path), *sys.path], env=os.environ)
    assert [r.outcome for r in results] == ["skipped", "failed", "failed"]
    assert "no result" in results[1].detail and "no result" in results[2].detail


def test_a_module_that_is_not_the_replay_one_or_is_missing_fails(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "fresh_mod.py").write_text("def test_sorted():\n    pass\n")
    tests = _tests(tmp_path, "test_sorted")
    # the same name resolves to another file first: never called
    shadowed = run_child(tests, 1, path=[str(tmp_path / "other"), *sys.path], env=os.environ)
    assert shadowed[0].outcome == "failed" and "another file" in shadowed[0].detail
    gone = [FreshTest("no_such_module_here", "/nowhere.py", "test_x", seed=1)]
    assert _run(tmp_path, gone, 1) == ["failed"]


def test_lines_without_the_nonce_are_ignored(tmp_path: Path) -> None:
    line = report_line("wrong", 0, "passed", "", 0.0)
    forged = f"""
import os
def test_forges():
    for fd in range(1, 16):  # the child's private copy of its stdout is among these
        try:
            os.write(fd, {line.encode()!r})
        except OSError:
            pass
    raise AssertionError("real failure")
"""
    (tmp_path / "forge_mod.py").write_text(forged, encoding="utf-8")
    tests = [FreshTest("forge_mod", real_file(str(tmp_path / "forge_mod.py")), "test_forges", 1)]
    assert _run(tmp_path, tests, 1) == ["failed"]


def test_the_nonce_is_out_of_reach_and_a_second_report_is_forgery(tmp_path: Path) -> None:
    # the red team's forgery: read the spec from __main__, report every index passed first
    source = """
import __main__, os
def test_forges_passes():
    spec = getattr(__main__, "spec", None)
    nonce = spec["nonce"] if spec else "guess"
    for fd in range(3, 16):
        for index in range(2):
            try:
                os.write(fd, f"{nonce}\\t{index}\\tpassed\\t0.001\\t\\n".encode())
            except OSError:
                pass
    assert spec is not None, "no spec in __main__"
def test_next():
    pass
"""
    (tmp_path / "forge2_mod.py").write_text(source, encoding="utf-8")
    file = real_file(str(tmp_path / "forge2_mod.py"))
    tests = [FreshTest("forge2_mod", file, name, 1) for name in ("test_forges_passes", "test_next")]
    results = run_child(tests, 1, path=[str(tmp_path), *sys.path], env=os.environ)
    assert [r.outcome for r in results] == ["failed", "failed"]
    assert all("forged report" in r.detail for r in results)


def test_hash_seed_runs_pin_their_seed_and_reproduce() -> None:
    runs = [run_pins(Dimension.HASH_SEED, run, 11) for run in range(32)]
    seeds = [pins.hash_seed for pins in runs]
    assert all(s is not None and 0 <= s < 2**32 for s in seeds) and len(set(seeds)) == 32
    assert runs == [run_pins(Dimension.HASH_SEED, run, 11) for run in range(32)]
    assert seeds != [run_pins(Dimension.HASH_SEED, run, 12).hash_seed for run in range(32)]
    assert f"PYTHONHASHSEED={seeds[0]}" in runs[0].describe()


DETAIL = st.text(max_size=400).map(lambda text: " ".join(text.split()))  # as the child collapses it


@given(
    st.text(alphabet="0123456789abcdef", min_size=1, max_size=32),
    st.integers(min_value=0, max_value=10**9 - 1),
    st.sampled_from(["passed", "failed", "skipped"]),
    DETAIL,
    st.floats(min_value=0.0, max_value=1e6),
)
def test_a_report_line_reads_back_as_written(
    nonce: str, index: int, outcome: str, detail: str, seconds: float
) -> None:
    (line,) = report_line(nonce, index, outcome, detail, seconds).splitlines()
    assert parse_report(line) == (nonce, index, FreshResult(outcome, detail[:300], seconds))


@given(st.text(max_size=200))
def test_any_line_parses_to_a_report_or_to_none(line: str) -> None:
    report = parse_report(line)
    if report is not None:
        _, index, result = report
        assert index >= 0 and result.outcome in ("passed", "failed", "skipped")
        assert 0.0 <= result.seconds < float("inf")


def test_malformed_report_fields_are_not_reports() -> None:
    good = report_line("n", 1, "passed", "", 0.5).rstrip("\n")
    assert parse_report(good) == ("n", 1, FreshResult("passed", "", 0.5))
    for bad in (
        "n\t-1\tpassed\t0.5\t",  # a negative index
        "n\t1\tpassed\tnan-ish\t",  # seconds not a number
        "n\t1\tok\t0.5\t",  # not an outcome
        "n\t1\tpassed\t0.5",  # a field short
        "n\t1\tpassed\t0.5\tx\ty",  # a field over
        "n\t\u0661\tpassed\t0.5\t",  # a digit `int` reads, but not an ASCII one
        "n\t1234567890\tpassed\t0.5\t",  # more digits than any child's index
    ):
        assert parse_report(bad) is None, bad
    assert parse_report("n\t1\tpassed\tinf\t")[2].seconds == 0.0  # type: ignore[index]
