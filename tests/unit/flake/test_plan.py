from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.flake.plan import ZONES, Order, make_plan
from lanegate.lanes.flake.select import SelectedTest, Selection
from tests.unit.flake.repos import zone_offsets

SELECTION = Selection(
    (
        SelectedTest("t.py::test_a", "t.py", True, frozenset()),
        SelectedTest("t.py::test_b", "t.py", True, frozenset({"random"})),
    )
)


@settings(derandomize=True, max_examples=60)
@given(seed=st.text(max_size=40), min_replays=st.integers(min_value=3, max_value=9))
def test_replays_differ_on_purpose_and_are_reproducible(seed: str, min_replays: int) -> None:
    plan = make_plan(SELECTION, min_replays, seed)
    assert plan == make_plan(SELECTION, min_replays, seed)
    assert len(plan.pins) == min_replays
    assert [p.replay for p in plan.pins] == list(range(1, min_replays + 1))
    assert len({p.hash_seed for p in plan.pins}) == min_replays
    assert all(0 <= p.hash_seed < 2**32 for p in plan.pins)
    assert [p.order for p in plan.pins[:3]] == [Order.FORWARD, Order.REVERSE, Order.SHUFFLED]
    assert all((p.order_seed is not None) == (p.order is Order.SHUFFLED) for p in plan.pins)
    assert len({p.tz for p in plan.pins[:3]}) == 3
    # every replay runs the selection once; repetitions are the budget's batches
    assert all(p.repeats == 1 and p.extra_repeats == 0 for p in plan.pins)
    assert plan.extra_tests == ("t.py::test_b",)
    assert all(
        plan.runs_of(n, p) == 1 for n in ("t.py::test_b[1]", "t.py::test_a") for p in plan.pins
    )


def test_every_zone_really_moves_the_clock() -> None:
    # `TZ=<X>-5` style names are silently UTC on some C libraries: check each zone's real offset.
    offsets = zone_offsets(ZONES)
    assert offsets["UTC0"] == 0
    assert offsets["LGE-14"] == 14 * 3600
    assert offsets["LGW+12"] == -12 * 3600
    assert len(set(offsets.values())) == len(ZONES)
