from __future__ import annotations

import datetime as dt

from lanegate.lanes.flake.budget import CLOCK_FLOOR, CLOCK_RUNS
from lanegate.lanes.flake.dimensions import (
    BATCH_DIMENSIONS,
    WIDE_ZONES,
    Dimension,
    clock_step,
    run_pins,
)
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


def test_clock_runs_reach_two_weeks_ahead_every_later_day_and_the_month_end() -> None:
    runs = [run_pins(Dimension.CLOCK, run, 7) for run in range(CLOCK_RUNS)]
    assert len({pins.clock_hours for pins in runs}) == CLOCK_RUNS  # each run its own offset
    assert all(pins == run_pins(Dimension.CLOCK, pins.run, 99) for pins in runs)  # recorded only
    # Every start date of three years (a leap year among them), at midnight, mid-morning, 23:59.
    for day in range(3 * 366):
        for minute in (0, 9 * 60 + 30, 23 * 60 + 59):
            now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC) + dt.timedelta(days=day, minutes=minute)
            shifted = [now + dt.timedelta(hours=pins.clock_hours) for pins in runs]
            dates = [s.date() for s in shifted]
            # the first clock run is already past a date two weeks away
            assert dates[0] >= now.date() + dt.timedelta(days=14)
            # every date of the next 32 days: every later day of the month, the month's last day
            ahead = {(d - now.date()).days for d in dates}
            assert set(range(33)) <= ahead
            assert any((d + dt.timedelta(days=1)).day == 1 for d in dates)
            assert {s.hour for s in shifted} == set(range(24))
    assert sorted(clock_step(r) for r in range(CLOCK_RUNS)) == list(range(CLOCK_RUNS))


def test_the_floor_of_clock_runs_reaches_a_later_day_of_the_month_from_any_date() -> None:
    """A test failing only from the 22nd of a month (the 19th in February: `day + 10` past the
    month's end) is exposed by the runs every clock-reading test gets, whatever the start date."""
    runs = [run_pins(Dimension.CLOCK, run, 7) for run in range(CLOCK_FLOOR)]
    for day in range(3 * 366):
        for minute in (0, 9 * 60 + 30, 23 * 60 + 59):
            now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC) + dt.timedelta(days=day, minutes=minute)
            dates = [(now + dt.timedelta(hours=pins.clock_hours)).date() for pins in runs]

            def late(d: dt.date) -> bool:
                following = d.replace(day=28) + dt.timedelta(days=4)
                last = (following - dt.timedelta(days=following.day)).day
                return d.day + 10 > last

            assert any(late(d) for d in dates), (now, dates)


def test_the_replay_plugin_imports_no_ledger_models() -> None:
    """Every replay process (and every hash-seed child) imports the plugin: the ledger models were
    a fifth of its import time, for one enum."""
    import subprocess
    import sys

    code = (
        "import sys, lanegate.lanes.flake.plugin\n"
        "loaded = sorted(n for n in sys.modules if n.startswith('lanegate.'))\n"
        "assert 'lanegate.ledgers.models' not in loaded, loaded\n"
        "assert 'lanegate.ledgers.dimension' in loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_preempting_stress_runs_take_every_yield_rate_in_turn() -> None:
    from lanegate.lanes.flake.dimensions import YIELD_EVERY, Dimension

    pins = [run_pins(Dimension.STRESS, run, 7) for run in range(2 * len(YIELD_EVERY))]
    assert [p.preempt for p in pins] == [False, True] * len(YIELD_EVERY)
    assert [p.yield_every for p in pins if p.preempt] == list(YIELD_EVERY)
    assert all(p.yield_every == 0 for p in pins if not p.preempt)
    described = pins[1].describe()
    assert f"yielded at 1 in {YIELD_EVERY[0]} calls of the threads the test starts" in described
    assert run_pins(Dimension.STRESS, 1, 7) == pins[1]  # a pure function of recorded values


def test_isolation_runs_after_the_first_stall_then_preempt_at_the_frequent_yield_rates() -> None:
    from lanegate.lanes.flake.dimensions import ISOLATION_YIELD_EVERY, YIELD_EVERY, Dimension

    pins = [run_pins(Dimension.ISOLATION, run, 7) for run in range(2 + len(ISOLATION_YIELD_EVERY))]
    assert not pins[0].preempt and pins[0].stress_seed is None  # alone, nothing else varied
    assert not pins[1].preempt and pins[1].stress_seed is not None  # alone under stalls
    assert "GIL stalls seeded" in pins[1].describe()
    assert all(p.preempt for p in pins[2:])
    assert [p.yield_every for p in pins[2:]] == list(ISOLATION_YIELD_EVERY) == [2, 10]
    assert ISOLATION_YIELD_EVERY == YIELD_EVERY[:-1]
    assert len({p.stress_seed for p in pins[1:]}) == len(pins) - 1
    assert pins[2].describe().startswith("isolation run 2 (")
    assert f"yielded at 1 in {YIELD_EVERY[0]} calls" in pins[2].describe()
    assert [run_pins(Dimension.ISOLATION, r, 7) for r in range(len(pins))] == pins
