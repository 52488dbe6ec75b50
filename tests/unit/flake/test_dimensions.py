from __future__ import annotations

from lanegate.lanes.flake.dimensions import BATCH_DIMENSIONS, WIDE_ZONES, run_pins
from tests.unit.flake.repos import zone_offsets


def test_wide_zones_really_move_the_clock_and_reach_every_local_hour() -> None:
    offsets = list(zone_offsets(WIDE_ZONES).values())
    assert len(set(offsets)) == len(WIDE_ZONES)
    assert min(offsets) == -12 * 3600 and max(offsets) == 14 * 3600
    # Whatever the UTC hour, some zone puts the local clock in each hour of the day.
    assert {(h * 3600 + off) // 3600 % 24 for off in offsets for h in [0]} == set(range(24))


def test_run_pins_are_a_pure_function_of_recorded_values() -> None:
    for dimension in BATCH_DIMENSIONS:
        for run in range(5):
            assert run_pins(dimension, run, 7) == run_pins(dimension, run, 7)
    assert (
        run_pins(BATCH_DIMENSIONS[0], 1, 7).random_key
        != run_pins(BATCH_DIMENSIONS[0], 2, 7).random_key
    )
    stress = [run_pins(d, 0, 7) for d in BATCH_DIMENSIONS if d == "stress"][0]
    assert stress.stress_seed is not None and "GIL stalls seeded" in stress.describe()
