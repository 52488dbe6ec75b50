"""The state-leak classifier: what only a test's later runs in one process show, told from chance."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from lanegate.ledgers.models import Dimension, FlakeTest, Outcome, ReplayOutcome, RunBatch
from lanegate.scoring.state_leak import MIN_FIRST_RUNS, state_leak

_LETTER = {"p": Outcome.PASSED, "f": Outcome.FAILED}


def _replay(n: int, outcome: Outcome = Outcome.PASSED, repeat: int = 0) -> ReplayOutcome:
    return ReplayOutcome(
        replay=n, repeat=repeat, outcome=outcome, hash_seed=n, order="forward", tz="UTC0"
    )


def _batch(n: int, sequence: str, dimension: Dimension = Dimension.REPEAT) -> RunBatch:
    return RunBatch(
        replay=n,
        dimension=dimension,
        runs=len(sequence),
        passed=sequence.count("p"),
        failed=sequence.count("f"),
        error=sequence.count("e"),
        missing=sequence.count("m"),
        first_failed_run=sequence.find("f") if "f" in sequence else None,
        first_passed_run=sequence.find("p") if "p" in sequence else None,
        sequence=sequence,
    )


def _test(*batches: RunBatch, firsts: str = "ppp") -> FlakeTest:
    return FlakeTest(
        node_id="tests/test_a.py::test_negate[args0]",
        replays=tuple(_replay(i + 1, _LETTER[c]) for i, c in enumerate(firsts)),
        batches=batches,
    )


def test_a_test_failing_at_the_same_runs_of_two_replays_repeats_is_a_leak() -> None:
    leak = state_leak(_test(_batch(2, "fpfpf"), _batch(3, "fpfp"), _batch(2, "pf", Dimension.ZONE)))
    assert leak is not None and leak.first_runs == 3
    assert leak.shown_by == ("r2.repeat fpfpf", "r3.repeat fpfp", "r2.zone pf")
    assert "passed in all 3 of its first runs" in leak.describe()
    # a cache that fails every later run: the same at every run too
    assert state_leak(_test(_batch(1, "ffff"), _batch(2, "fff"))) is not None


def test_first_runs_that_failed_or_fresh_runs_that_failed_are_no_leak() -> None:
    repeats = (_batch(2, "fpfp"), _batch(3, "fpfp"))
    assert state_leak(_test(*repeats, firsts="pfp")) is None
    assert state_leak(_test(*repeats, _batch(1, "pf", Dimension.ISOLATION))) is None
    assert state_leak(_test(*repeats, _batch(1, "pf", Dimension.HASH_SEED))) is None
    # fresh interpreters that could not run it at all (a conftest's set-up) say nothing
    assert state_leak(_test(*repeats, _batch(1, "ff", Dimension.HASH_SEED))) is not None
    # a second pass in a process is a later run: its failure shows the leak, it is not a first run
    second = replace(_test(*repeats), replays=(*_test().replays, _replay(1, Outcome.FAILED, 1)))
    assert state_leak(second) is not None


def test_chance_disagreement_one_replay_or_unknown_order_is_no_leak() -> None:
    assert state_leak(_test(_batch(2, "fpfp"), _batch(3, "pffp"))) is None  # other runs failed
    assert state_leak(_test(_batch(2, "fpfp"), _batch(3, "pppp"))) is None  # one replay only
    assert state_leak(_test(_batch(2, "fpfp"))) is None
    assert state_leak(_test(_batch(2, "fpfp"), replace(_batch(3, "fpfp"), sequence=""))) is None
    assert state_leak(_test(_batch(2, "fpfp"), _batch(3, "fpfm"))) is None  # a run reported nothing
    assert state_leak(_test(_batch(2, "fpfp"), _batch(3, "fpfp"), firsts="pp")) is None


@given(
    firsts=st.text("pf", min_size=1, max_size=5),
    sequences=st.lists(st.text("pf", min_size=1, max_size=8), min_size=0, max_size=4),
)
def test_a_leak_needs_passing_first_runs_and_agreeing_repeats(
    firsts: str, sequences: list[str]
) -> None:
    test = _test(*(_batch(n + 1, s) for n, s in enumerate(sequences)), firsts=firsts)
    leak = state_leak(test)
    agree = all(
        a[: min(len(a), len(b))] == b[: min(len(a), len(b))] for a in sequences for b in sequences
    )
    failing_replays = sum(1 for s in sequences if "f" in s)
    expected = (
        set(firsts) == {"p"} and len(firsts) >= MIN_FIRST_RUNS and agree and failing_replays >= 2
    )
    assert (leak is not None) == expected
