from __future__ import annotations

import dataclasses
from typing import Any

from lanegate.lanes.flake.budget import BatchPlan
from lanegate.lanes.flake.execute import ReplayRun
from lanegate.lanes.flake.outcomes import assemble, describe_disagreement
from lanegate.lanes.flake.plan import make_plan
from lanegate.lanes.flake.select import SelectedTest, Selection
from lanegate.ledgers.models import Dimension, FlakeTest, Outcome

A, B = "t.py::test_a", "t.py::test_b"
SELECTION = Selection(
    (
        SelectedTest(A, "t.py", False, frozenset()),
        SelectedTest(B, "t.py", True, frozenset({"random"})),
    )
)
# Replay 1 with a second pass and extra runs of the risky test, as ledgers written before the lane
# ran every replay once still record it (assembly and `--replay` read them).
_PLAN = make_plan(SELECTION, 3, "seed")
PLAN = dataclasses.replace(
    _PLAN,
    pins=(dataclasses.replace(_PLAN.pins[0], repeats=2, extra_repeats=3), *_PLAN.pins[1:]),
)


def out(node: str, repeat: int, outcome: str = "passed") -> dict[str, Any]:
    return {
        "kind": "outcome",
        "node_id": node,
        "repeat": repeat,
        "outcome": outcome,
        "seconds": 0.1,
    }


def full(replay: int, fail: tuple[str, int] | None = None) -> list[dict[str, Any]]:
    pin = PLAN.pins[replay - 1]
    return [
        out(node, repeat, "failed" if fail == (node, repeat) else "passed")
        for node in (A, B)
        for repeat in range(PLAN.runs_of(node, pin))
    ]


def run(replay: int, lines: list[dict[str, Any]], **over: Any) -> ReplayRun:
    values: dict[str, Any] = {
        "replay": replay,
        "exit_code": 0,
        "seconds": 1.0,
        "timed_out": False,
        "lines": tuple(lines),
        "forged_lines": 0,
        "stray_processes": False,
        "output_tail": "",
    }
    values.update(over)
    return ReplayRun(**values)


def outcomes(runs: list[ReplayRun]) -> dict[str, list[Outcome]]:
    tests, _ = assemble(SELECTION, PLAN, runs)
    return {t.node_id: [o.outcome for o in t.replays] for t in tests}


def test_all_passing_is_deterministic_and_counts_every_run() -> None:
    tests, _ = assemble(SELECTION, PLAN, [run(1, full(1)), run(2, full(2)), run(3, full(3))])
    assert all(t.deterministic for t in tests)
    a, b = tests
    assert len(a.replays) == 2 + 1 + 1
    assert len(b.replays) == 2 + PLAN.pins[0].extra_repeats + 1 + 1
    assert b.touched_by_diff and not a.touched_by_diff
    assert {o.tz for o in a.replays} == {p.tz for p in PLAN.pins}


def test_one_failure_names_the_replay_and_its_pins() -> None:
    tests, _ = assemble(
        SELECTION, PLAN, [run(1, full(1)), run(2, full(2)), run(3, full(3, (B, 0)))]
    )
    b = tests[1]
    assert not b.deterministic
    text = describe_disagreement(b)
    pin = PLAN.pins[2]
    assert "failed in replay 3 run 1" in text
    assert f"PYTHONHASHSEED={pin.hash_seed}" in text
    assert f"order=shuffled, order_seed={pin.order_seed}" in text
    assert f"TZ={pin.tz}" in text


def test_missing_timeout_duplicate_leftover_forged_are_never_passes() -> None:
    early_exit = run(1, full(1)[:1], exit_code=0)
    assert Outcome.MISSING in outcomes([early_exit, run(2, full(2)), run(3, full(3))])[B]
    hang = run(2, [], timed_out=True, exit_code=None)
    assert outcomes([run(1, full(1)), hang, run(3, full(3))])[A].count(Outcome.TIMEOUT) == 1
    twice = run(2, full(2) + [out(A, 0)])
    assert Outcome.ERROR in outcomes([run(1, full(1)), twice, run(3, full(3))])[A]
    leftover = run(3, full(3) + [{"kind": "leftover", "node_id": B, "repeat": 0, "pid": 9}])
    got = outcomes([run(1, full(1)), run(2, full(2)), leftover])
    assert got[B][-1] is Outcome.ERROR and Outcome.ERROR not in got[A]
    stray = run(3, full(3), stray_processes=True)
    assert outcomes([run(1, full(1)), run(2, full(2)), stray])[A][-1] is Outcome.ERROR
    forged = run(1, full(1), forged_lines=1)
    assert Outcome.ERROR in outcomes([forged, run(2, full(2)), run(3, full(3))])[A]


def test_parametrized_items_and_never_collected_tests() -> None:
    lines = [out("t.py::test_b[x]", r) for r in range(PLAN.runs_of(B, PLAN.pins[0]))]
    tests, _ = assemble(SELECTION, PLAN, [run(1, lines), run(2, []), run(3, [])])
    ids = [t.node_id for t in tests]
    assert ids == [A, "t.py::test_b[x]"]
    assert all(o.outcome is Outcome.MISSING for o in tests[0].replays)
    assert not tests[1].deterministic
    assert "missing in every run" in describe_disagreement(tests[0])


def test_a_selection_of_parametrized_items_lists_each_item_once() -> None:
    # a new file's selection is its collection: the items themselves, brackets and all, the
    # module run whole
    items = ("t.py::test_p[a]", "t.py::test_p[b]")
    for whole in (True, False):
        selection = Selection(
            tuple(SelectedTest(i, "t.py", True, frozenset(), whole_module=whole) for i in items)
        )
        _each_item_once(selection, items)


def _each_item_once(selection: Selection, items: tuple[str, ...]) -> None:
    plan = make_plan(selection, 3, "seed")
    runs = [run(pin.replay, [out(i, 0) for i in items]) for pin in plan.pins]
    tests, _ = assemble(selection, plan, runs)
    assert [t.node_id for t in tests] == list(items)
    assert all(t.deterministic for t in tests)
    assert all({o.replay for o in t.replays} == {1, 2, 3} for t in tests)


def test_unknown_outcomes_and_foreign_tests_are_ignored_or_errors() -> None:
    lines = full(1) + [out("other.py::test_x", 0)]
    lines[0] = out(A, 0, "xpassed-ish")
    got = outcomes([run(1, lines), run(2, full(2)), run(3, full(3))])
    assert "other.py::test_x" not in got
    assert got[A][0] is Outcome.ERROR


BATCHED = PLAN.with_batches(
    (
        BatchPlan(2, A, Dimension.REPEAT, 10),
        BatchPlan(2, A, Dimension.ZONE, 4),
        BatchPlan(3, A, Dimension.ISOLATION, 1),
    )
)


def batch(node: str, dimension: str, **counts: int) -> dict[str, Any]:
    first = dict.fromkeys(counts, 0)
    return {
        "kind": "batch",
        "node_id": node,
        "dimension": dimension,
        "counts": counts,
        "first": first,
        "detail": "",
        "seconds": 0.01,
    }


def batched(lines2: list[dict[str, Any]], lines3: list[dict[str, Any]]) -> FlakeTest:
    runs = [run(1, full(1)), run(2, full(2) + lines2), run(3, full(3) + lines3)]
    tests, _ = assemble(SELECTION, BATCHED, runs)
    return tests[0]


def test_complete_batches_count_towards_power_and_agree() -> None:
    a = batched(
        [batch(A, "repeat", passed=10), batch(A, "zone", passed=4)],
        [batch(A, "isolation", passed=1)],
    )
    assert a.deterministic and a.exposed_by is None
    assert [(b.dimension, b.passed, b.missing) for b in a.batches] == [
        (Dimension.REPEAT, 10, 0),
        (Dimension.ZONE, 4, 0),
        (Dimension.ISOLATION, 1, 0),
    ]
    assert a.power.executions == 4 + 15 and a.power.repeat == 1 + 10 and a.power.isolation == 1


def test_a_batch_that_disagrees_names_its_dimension_and_run() -> None:
    a = batched(
        [batch(A, "repeat", passed=10), batch(A, "zone", passed=3, failed=1)],
        [batch(A, "isolation", passed=1)],
    )
    assert not a.deterministic and a.exposed_by is Dimension.ZONE
    assert a.reproduce is not None and a.reproduce.startswith("replay 2, zone run 0 (")
    alone = batched(
        [batch(A, "repeat", passed=10), batch(A, "zone", passed=4)],
        [batch(A, "isolation", failed=1)],
    )
    assert not alone.deterministic and alone.exposed_by is Dimension.ISOLATION


def test_missing_short_duplicate_and_leftover_batches_are_never_passes() -> None:
    missing = batched([batch(A, "repeat", passed=10)], [batch(A, "isolation", passed=1)])
    assert missing.batches[1].missing == 4 and not missing.deterministic
    short = batched(
        [batch(A, "repeat", passed=9), batch(A, "zone", passed=4)],
        [batch(A, "isolation", passed=1)],
    )
    assert short.batches[0].missing == 1 and not short.deterministic
    twice = batched(
        [batch(A, "repeat", passed=10), batch(A, "repeat", passed=10), batch(A, "zone", passed=4)],
        [batch(A, "isolation", passed=1)],
    )
    assert twice.batches[0].error == 10
    left = batched(
        [
            batch(A, "repeat", passed=10),
            batch(A, "zone", passed=4),
            {"kind": "leftover", "node_id": A, "repeat": "zone", "pid": 7},
        ],
        [batch(A, "isolation", passed=1)],
    )
    assert left.batches[1].error == 4 and "left process 7" in left.batches[1].detail


def test_failing_everywhere_but_differently_per_replay_is_nondeterministic() -> None:
    def failing(replay: int, detail: str) -> list[dict[str, Any]]:
        pin = PLAN.pins[replay - 1]
        return [
            {**out(node, repeat, "failed"), "detail": detail}
            for node in (A, B)
            for repeat in range(PLAN.runs_of(node, pin))
        ]

    same = [run(r, failing(r, "AssertionError: assert 1 == 2 at 0x7f00aa")) for r in (1, 2, 3)]
    tests, _ = assemble(SELECTION, PLAN, same)
    assert all(t.deterministic for t in tests)  # addresses differ, the cause does not
    orders = ["['a', 'b'] != ['b', 'a']", "['a', 'b'] != ['b', 'a']", "['b', 'a'] != ['b', 'a']"]
    differ = [run(r, failing(r, f"AssertionError: {orders[r - 1]}")) for r in (1, 2, 3)]
    tests, _ = assemble(SELECTION, PLAN, differ)
    a = tests[0]
    assert not a.deterministic and a.exposed_by is Dimension.HASH_SEED
    assert a.reproduce is not None and a.reproduce.startswith("replay 3 run 1 (PYTHONHASHSEED=")


def test_an_unreadable_or_unflagged_after_failure_of_sets_nothing_aside() -> None:
    for value in (7, ["t.py::test_b"], "", None, B):  # B passes everywhere: not a culprit
        zone = {**batch(A, "zone", passed=3, failed=1), "after_failure_of": value}
        a = batched([batch(A, "repeat", passed=10), zone], [batch(A, "isolation", passed=1)])
        assert not a.deterministic and a.exposed_by is Dimension.ZONE, value
        assert a.batches[1].after_failure_of == (B if value == B else None), value
