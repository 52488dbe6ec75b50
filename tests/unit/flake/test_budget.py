from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.flake.budget import (
    CLOCK_RUNS,
    DESCHEDULE_COST,
    DESCHEDULE_RUNS,
    ISOLATION_THREAD_RUNS,
    MAX_RUNS,
    MIN_RUNS,
    STRESS_FLOOR_WALL,
    STRESS_PLAIN,
    WALL_CAP_SECONDS,
    RunCost,
    executions_for,
    minimum,
    plan_batches,
    spent,
    total_runs,
    waited,
    with_floors,
)
from lanegate.lanes.flake.dimensions import YIELD_EVERY, Dimension
from lanegate.scoring.flake_power import min_detectable_rate


def _runs(plans: tuple[object, ...], node: str) -> dict[tuple[int, Dimension], int]:
    return {(p.replay, p.dimension): p.runs for p in plans if p.node_id == node}  # type: ignore[attr-defined]


def test_fast_tests_get_hundreds_slow_ones_the_minimum() -> None:
    costs = [RunCost("t.py::fast", 0.00002, True), RunCost("t.py::slow", 2.0, False)]
    assert total_runs(costs, 0.0) == [MIN_RUNS, MIN_RUNS]  # the floor costs the budget nothing
    fast, slow = total_runs(costs, 0.5)
    assert fast == MAX_RUNS and slow == MIN_RUNS


def test_floors_reach_the_power_the_scorer_asks_for() -> None:
    costs = [
        RunCost("t.py::new", 0.01, False),
        RunCost("t.py::context", 0.01, False, touched=False),
    ]
    for rate in (0.5, 0.2, 0.05, 0.01):
        need = executions_for(rate)
        assert min_detectable_rate(need) <= rate < min_detectable_rate(need - 1)
        floored = with_floors(costs, 3, rate)
        runs = total_runs(floored, 0.0)
        # base runs + isolation (the new test only) + batch runs
        assert 3 + 1 + runs[0] >= need and 3 + runs[1] >= need
        assert spent(floored, runs) == 0.0
        plans = plan_batches(floored, 0.0)
        for cost in floored:
            planned = sum(p.runs for p in plans if p.node_id == cost.node_id)
            assert 3 + planned >= need
    slow = with_floors([RunCost("t.py::slow", 5.0, False)], 3, 0.01)
    assert 5.0 * (slow[0].floor - MIN_RUNS) <= WALL_CAP_SECONDS  # a floor never waits for ever


def test_waiting_is_charged_a_tenth_and_capped_by_the_wall_clock() -> None:
    sleeper = RunCost("t.py::sleeps", 0.1, True, cpu=0.0)
    worker = RunCost("t.py::works", 0.1, True, cpu=0.1)
    assert sleeper.per_run < worker.per_run / 5
    assert RunCost("t.py::unmeasured", 0.1, True).per_run == worker.per_run
    (sleeps,) = total_runs([sleeper], 10.0, wall_cap=1.0)
    assert 5 <= sleeps <= 11  # the wall cap, not the budget, ends its runs


def test_risky_tests_get_more_shares_of_the_budget() -> None:
    plain = RunCost("t.py::plain", 0.001, True, cpu=0.001)
    risky = RunCost("t.py::risky", 0.001, True, frozenset({"resource"}), cpu=0.001)
    runs_plain, runs_risky = total_runs([plain, risky], 0.1)
    assert runs_risky > 3 * runs_plain


def test_the_budget_is_shared_by_water_filling() -> None:
    costs = [RunCost(f"t.py::t{i}", 0.001 * (i + 1), True) for i in range(5)]
    runs = total_runs(costs, 0.3)
    assert runs == sorted(runs, reverse=True)  # cheaper tests run more often
    assert 0.25 <= spent(costs, runs) <= 0.3  # the budget is spent, not exceeded


@settings(derandomize=True, max_examples=80)
@given(
    seconds=st.lists(st.floats(min_value=0, max_value=5), min_size=1, max_size=12),
    budget=st.floats(min_value=0, max_value=20),
)
def test_never_over_budget_beyond_the_minimum(seconds: list[float], budget: float) -> None:
    costs = [RunCost(f"t.py::t{i}", s, i % 2 == 0) for i, s in enumerate(seconds)]
    runs = total_runs(costs, budget)
    assert all(minimum(c) <= r <= MAX_RUNS for c, r in zip(costs, runs, strict=True))
    assert spent(costs, runs) <= budget + 1e-9
    assert waited(costs, runs) <= WALL_CAP_SECONDS + 1e-9


def test_every_dimension_gets_runs_and_risky_tests_more_stress() -> None:
    costs = [
        RunCost("t.py::plain", 0.0001, True, frozenset(), touched=False),
        RunCost("t.py::timed", 0.0001, True, frozenset({"threads"})),
    ]
    plans = plan_batches(costs, 1.0)
    plain, timed = _runs(plans, "t.py::plain"), _runs(plans, "t.py::timed")
    assert set(plain) == {(2, Dimension.REPEAT), (3, Dimension.REPEAT), (2, Dimension.ZONE)}
    # touched by the diff and starts threads: once alone, then under stalls and two yield rates
    assert timed[(3, Dimension.ISOLATION)] == ISOLATION_THREAD_RUNS == len(YIELD_EVERY) + 1
    assert STRESS_PLAIN == 0 < timed[(3, Dimension.STRESS)]
    clocked = _runs(
        plan_batches([RunCost("t.py::c", 0.0001, True, frozenset({"clock"}))], 1.0), "t.py::c"
    )
    assert clocked[(3, Dimension.CLOCK)] == CLOCK_RUNS and clocked[(3, Dimension.STRESS)] > 0
    assert sum(plain.values()) == MAX_RUNS
    assert plan_batches(costs, 1.0) == plans


def test_a_touched_thread_test_runs_alone_more_often_within_its_cost_and_wall() -> None:
    plain = _runs(plan_batches([RunCost("t.py::p", 0.0001, True, frozenset())], 1.0), "t.py::p")
    assert plain[(3, Dimension.ISOLATION)] == 1
    # a thread test whose run costs a third of DESCHEDULE_COST: two runs alone, not four
    slow = RunCost("t.py::s", DESCHEDULE_COST / 3, False, frozenset({"threads"}))
    assert _runs(plan_batches([slow], 0.0), "t.py::s")[(3, Dimension.ISOLATION)] == 2
    # one that sleeps (cheap in CPU) so long that two runs pass STRESS_FLOOR_WALL: once alone
    sleepy = RunCost("t.py::z", STRESS_FLOOR_WALL * 2 / 3, False, frozenset({"threads"}), cpu=0.0)
    assert _runs(plan_batches([sleepy], 0.0), "t.py::z")[(3, Dimension.ISOLATION)] == 1
    untouched = RunCost("t.py::u", 0.0001, True, frozenset({"threads"}), touched=False)
    assert (3, Dimension.ISOLATION) not in _runs(plan_batches([untouched], 1.0), "t.py::u")


HASHING = frozenset({"hashing"})


def test_hash_seed_runs_go_to_cheap_tests_a_fresh_interpreter_can_call() -> None:
    from lanegate.lanes.flake.budget import (
        FRESH_MAX_SECONDS,
        FRESH_RUNS,
        FRESH_RUNS_HEAVY,
        HASH_REPLAY,
    )

    costs = [
        RunCost("t.py::light", 0.0001, True, HASHING, fresh="light"),
        RunCost("t.py::heavy", 0.0001, True, HASHING, fresh="heavy"),
        RunCost("t.py::no_sets", 0.0001, True, fresh="light"),
        RunCost("t.py::fixtures", 0.0001, False, HASHING),
        RunCost("t.py::slow", 2 * FRESH_MAX_SECONDS, True, HASHING, fresh="light"),
    ]
    plans = plan_batches(with_floors(costs, 3, 0.5), 0.0)
    # sets and hashes cost no budget shares: no_sets and light get the same repeat runs
    assert (
        _runs(plans, "t.py::light")[(2, Dimension.REPEAT)]
        == _runs(plans, "t.py::no_sets")[(2, Dimension.REPEAT)]
    )
    hash_runs = {p.node_id: p.runs for p in plans if p.dimension is Dimension.HASH_SEED}
    assert hash_runs == {"t.py::light": FRESH_RUNS, "t.py::heavy": FRESH_RUNS_HEAVY}
    assert all(p.replay == HASH_REPLAY for p in plans if p.dimension is Dimension.HASH_SEED)
    # the budget pays none of them: the same runs at any budget
    more = plan_batches(with_floors(costs, 3, 0.5), 5.0)
    assert {p.node_id: p.runs for p in more if p.dimension is Dimension.HASH_SEED} == hash_runs


def test_host_runs_are_unpaid_and_go_to_tests_whose_ast_shows_the_condition() -> None:
    from lanegate.lanes.flake.budget import HOST_REPLAY, HOST_RUNS
    from lanegate.lanes.flake.dimensions import HOST_RISKS

    host = HOST_RISKS
    costs = [
        RunCost("t.py::host", 2.0, False, host),
        RunCost("t.py::plain", 2.0, False),
        RunCost("t.py::fast_host", 0.0001, True, host),
        RunCost("t.py::fast_plain", 0.0001, True),
    ]
    plans = plan_batches(with_floors(costs, 3, 0.5), 0.0)
    slow = _runs(plans, "t.py::host")
    for dimension, runs in HOST_RUNS.items():
        assert slow[(HOST_REPLAY, dimension)] == runs  # even at budget 0: unpaid
    assert not {d for _, d in _runs(plans, "t.py::plain")} & set(HOST_RUNS)
    # host risks ask for host runs (and a touched test's shared-host pairs), not for a larger
    # share of the budget
    shared = plan_batches(costs, 1.0)
    fast_host, fast_plain = _runs(shared, "t.py::fast_host"), _runs(shared, "t.py::fast_plain")
    unpaid = {*HOST_RUNS, Dimension.SHARED_HOST}
    assert {k: v for k, v in fast_host.items() if k[1] not in unpaid} == fast_plain


def test_a_touched_test_that_uses_a_path_or_a_socket_runs_in_shared_host_pairs() -> None:
    from lanegate.lanes.flake.budget import SHARED_REPLAY, SHARED_RUNS

    costs = [
        RunCost("t.py::files", 0.01, True, frozenset({"cwd"})),
        RunCost("t.py::socket", 0.01, True, frozenset({"resource"})),
        RunCost("t.py::files_untouched", 0.01, True, frozenset({"cwd"}), touched=False),
        RunCost("t.py::plain", 0.01, True),
    ]
    plans = plan_batches(with_floors(costs, 3, 0.5), 0.0)
    for name in ("t.py::files", "t.py::socket"):
        assert _runs(plans, name)[(SHARED_REPLAY, Dimension.SHARED_HOST)] == SHARED_RUNS
    for name in ("t.py::files_untouched", "t.py::plain"):
        assert Dimension.SHARED_HOST not in {d for _, d in _runs(plans, name)}


def test_a_thread_test_keeps_its_stress_floor_whatever_the_budget() -> None:
    from lanegate.lanes.flake.budget import STRESS_FLOOR, STRESS_REPLAY

    race = RunCost("t.py::race", 0.003, True, frozenset({"threads"}), cpu=0.003)
    middle = RunCost("t.py::middle", 0.2, True, frozenset({"threads"}), cpu=0.2)
    slow = RunCost("t.py::slow", 10.0, True, frozenset({"threads"}), cpu=10.0)
    timer = RunCost("t.py::timer", 0.003, True, frozenset({"clock"}), cpu=0.003)
    stress = (STRESS_REPLAY, Dimension.STRESS)
    for budget in (0.0, 0.25):
        plans = plan_batches(with_floors([race, middle, slow, timer], 3, 0.5), budget)
        assert _runs(plans, race.node_id)[stress] >= STRESS_FLOOR
        assert _runs(plans, middle.node_id)[stress] == 2  # 0.5 CPU s affords two 0.2 s runs
        assert stress not in _runs(plans, slow.node_id)  # a 10 s test affords none
    # the floor is the threads' alone: at budget 0 a clock test's stress runs are the budget's, none
    assert stress not in _runs(plan_batches(with_floors([timer], 3, 0.5), 0.0), timer.node_id)


def test_the_stress_floor_is_paid_by_no_other_dimension() -> None:
    from lanegate.lanes.flake.budget import STRESS_FLOOR, STRESS_REPLAY, STRESS_THREADS

    race = RunCost("t.py::race", 0.003, True, frozenset({"threads"}), cpu=0.003)
    for budget in (0.0, 0.01, 0.02, 0.04, 0.25, 1.0):
        (runs,) = total_runs([race], budget)
        plans = plan_batches([race], budget)
        others = sum(p.runs for p in plans if p.dimension is not Dimension.STRESS)
        stress = _runs(plans, race.node_id)[(STRESS_REPLAY, Dimension.STRESS)]
        # the budget's stress runs: after the repeat floor (one in each repeat replay)
        paid = min(STRESS_THREADS, (runs + 1) // 2, runs - min(runs, MIN_RUNS))
        # isolation (alone, then preempted) and deschedule are unpaid too; the budget's runs
        # all land somewhere
        assert others - ISOLATION_THREAD_RUNS - DESCHEDULE_RUNS == runs - paid, budget
        assert stress == max(paid, STRESS_FLOOR), budget


def test_stress_floors_wait_at_most_their_wall_cap_together() -> None:
    from lanegate.lanes.flake.budget import STRESS_FLOORS_WALL, stress_floors

    costs = [RunCost(f"t.py::t{i}", 0.4, True, frozenset({"threads"}), cpu=0.0) for i in range(40)]
    floors = stress_floors(costs)
    assert sum(f * c.wall for c, f in zip(costs, floors, strict=True)) <= STRESS_FLOORS_WALL
    assert stress_floors(costs[:1]) == [6]  # one sleeping 0.4 s test: within 3 s of wall


def test_every_test_repeats_right_after_itself_in_both_repeat_replays() -> None:
    # the scorer tells a state leak (a test failing when it runs again in its process) from a flake
    # only on the repeat runs of two replays: however small the budget, each test gets one in both
    from lanegate.lanes.flake.budget import REPEAT_REPLAYS

    costs = [
        RunCost(f"t.py::t[{i}]", 0.5, True, frozenset({"threads"} if i % 2 else ()), cpu=0.5)
        for i in range(76)
    ]
    plans = plan_batches(with_floors(costs, 3, 0.5), 0.0)
    for cost in costs:
        runs = _runs(plans, cost.node_id)
        for replay in REPEAT_REPLAYS:
            assert runs.get((replay, Dimension.REPEAT), 0) >= 1, (cost.node_id, runs)
