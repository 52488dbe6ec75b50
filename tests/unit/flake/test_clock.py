"""The in-process clock shift, in a fresh interpreter (installing it here would shift this suite)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from hypothesis import given
from hypothesis import strategies as st

SCRIPT = textwrap.dedent(
    """
    import pickle, time
    from lanegate.lanes.flake import clock
    clock.install()
    import datetime
    from datetime import date, datetime as DT

    real_day = date.fromtimestamp(clock._real_time())
    for real in (1000.1, 1000.5, 1000.9):  # fixed readings: the live clock made this flaky
        lead_offset = clock.offset_for(0, 0.25, real=real)
        assert abs((real + lead_offset) % 1 - 0.75) < 1e-9 and 0 <= lead_offset < 1
    with clock.shifted(30 * 86400.0):
        assert (date.today() - real_day).days in (30, 31)
        assert DT.now().toordinal() - real_day.toordinal() in (30, 31)
        assert time.gmtime().tm_yday != time.gmtime(clock._real_time()).tm_yday
        time.sleep(0.001)  # libfaketime breaks this under CPython 3.11+; the shim must not
        assert time.clock_gettime(time.CLOCK_REALTIME) - clock._real_time() > 29 * 86400
        assert time.clock_gettime_ns(time.CLOCK_REALTIME) // 10**9 - int(clock._real_time()) > 29 * 86400
        assert abs(time.clock_gettime(time.CLOCK_MONOTONIC) - time.monotonic()) < 60
    offset = clock.offset_for(5, 0.25, real=1000.5)
    assert abs(1000.5 + offset - (1000 + 5 * 3600 + 1 - 0.25)) < 1e-9
    assert date.today() == real_day or (date.today() - real_day).days == 1
    assert repr(DT(2020, 1, 1)) == "datetime.datetime(2020, 1, 1, 0, 0)"
    assert repr(date(2020, 1, 2)) == "datetime.date(2020, 1, 2)"
    assert isinstance(datetime.datetime.fromtimestamp(0), DT) and isinstance(DT(2020, 1, 1), DT)
    assert pickle.loads(pickle.dumps(DT(2020, 1, 1))) == DT(2020, 1, 1)
    assert time.monotonic() > 0
    print("ok")
    """
)


def test_the_shift_moves_wall_clocks_only_and_looks_like_the_real_thing() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


DST_CHECK = textwrap.dedent(
    """
    import calendar, json, sys, time
    from lanegate.lanes.flake import clock

    out = []
    for start in (True, False):
        for when in sys.argv[1:]:
            real = calendar.timegm(time.strptime(when, "%Y-%m-%dT%H:%M"))
            moved = time.localtime(real + clock.dst_offset(start, real))
            day = (moved.tm_year, moved.tm_mon, moved.tm_mday)
            length = time.mktime((*day[:2], day[2] + 1, 0, 0, 0, 0, 0, -1)) - time.mktime(
                (*day, 0, 0, 0, 0, 0, -1)
            )
            out.append([start, when, moved.tm_hour, moved.tm_min, length, real + clock.dst_offset(start, real) > real])
    print(json.dumps(out))
    """
)


def test_dst_runs_land_before_the_change_on_a_23_or_25_hour_day_from_any_date() -> None:
    from lanegate.lanes.flake.dimensions import DST_CHANGES

    dates = [
        "2026-01-15T12:00",
        "2026-03-08T06:59",  # the US change day itself, before 2:00 local
        "2026-03-08T12:00",  # the same day, after it: the next start is a year away
        "2026-07-01T00:00",
        "2026-10-25T00:30",
        "2026-11-01T23:00",
        "2027-12-31T23:59",
    ]
    for zone, _ in DST_CHANGES:
        done = subprocess.run(
            [sys.executable, "-c", DST_CHECK, *dates],
            env={"TZ": zone, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        )
        for start, when, hour, minute, length, ahead in json.loads(done.stdout):
            assert (hour, minute) == (0, 30), (zone, when)
            assert length == (23 if start else 25) * 3600, (zone, when, start)
            assert ahead, (zone, when)  # always the next change, never one in the past


def test_a_zone_without_dst_leaves_the_clock_alone() -> None:
    code = "from lanegate.lanes.flake import clock; print(clock.dst_offset(True, 1.8e9))"
    done = subprocess.run(
        [sys.executable, "-c", code], env={"TZ": "UTC0"}, capture_output=True, text=True, check=True
    )
    assert float(done.stdout) == 0.0


@given(
    real=st.floats(min_value=1e9, max_value=2e9),
    hours=st.integers(min_value=0, max_value=48),
    lead=st.sampled_from([0.0, 0.001, 0.1, 0.25, 0.5, 0.999]),
)
def test_an_offset_never_puts_the_clock_behind_the_shifted_time(
    real: float, hours: int, lead: float
) -> None:
    """The lead lands on the next second when less of this one is left (CI: a read at .912 and a
    shift to .9 of the same second moved the clock back)."""
    from lanegate.lanes.flake import clock

    shifted = real + hours * 3600
    target = real + clock.offset_for(hours, lead, real=real)
    assert shifted - 1e-6 <= target < shifted + 1 + 1e-6
    assert abs(target + lead - round(target + lead)) < 1e-6


FILE_TIMES = textwrap.dedent(
    """
    import os, pathlib, tempfile, time
    from lanegate.lanes.flake import clock
    clock.install()

    folder = pathlib.Path(tempfile.mkdtemp())
    early = folder / "early.txt"
    early.write_text("x")  # before the move: its real mtime moves with the clock too
    with clock.shifted(15 * 86400.0):
        late = folder / "late.txt"
        late.write_text("x")
        now = time.time()
        for path in (early, late):
            assert abs(now - path.stat().st_mtime) < 60, (path, now, path.stat().st_mtime)
            assert abs(now - os.path.getmtime(path)) < 60
            assert abs(now * 1e9 - os.lstat(path).st_mtime_ns) < 60e9
        with open(late) as handle:
            assert abs(now - os.fstat(handle.fileno()).st_mtime) < 60
        os.utime(late, (now - 3600, now - 3600))  # an hour ago, on the moved clock
        assert abs(late.stat().st_mtime - (now - 3600)) < 1
        os.utime(late, ns=(int(now * 1e9), int(now * 1e9)))
        assert abs(late.stat().st_mtime - now) < 1
    assert abs(time.time() - late.stat().st_mtime) < 60  # stored as the real time
    assert abs(time.time() - early.stat().st_mtime) < 60
    assert os.stat.__name__ == "stat"
    assert os.stat in os.supports_dir_fd and os.stat in os.supports_follow_symlinks
    print("ok")
    """
)


def test_file_times_move_with_the_clock_and_round_trip() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FILE_TIMES], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
