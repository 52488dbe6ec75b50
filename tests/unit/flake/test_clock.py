"""The in-process clock shift, in a fresh interpreter (installing it here would shift this suite)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

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
        assert abs((real + lead_offset) % 1 - 0.75) < 1e-9 and abs(lead_offset) < 1
    with clock.shifted(30 * 86400.0):
        assert (date.today() - real_day).days in (30, 31)
        assert DT.now().toordinal() - real_day.toordinal() in (30, 31)
        assert time.gmtime().tm_yday != time.gmtime(clock._real_time()).tm_yday
        time.sleep(0.001)  # libfaketime breaks this under CPython 3.11+; the shim must not
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
