"""Every POSIX `TZ` string a replay sets is a `zoneinfo` key too (`lanes/flake/zonefiles.py`), and
`ZoneInfo` of it tells the same local time as the C library under that `TZ`, DST rules included,
at instants over two years (run in a subprocess: `TZ` and `zoneinfo`'s path are process-wide)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from lanegate.lanes.flake import zonefiles

CHECK = """\
import datetime, os, sys, time, zoneinfo

zoneinfo.reset_tzpath(to=[sys.argv[1]])
bad = []
start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
for zone in sys.argv[2:]:
    os.environ["TZ"] = zone
    time.tzset()
    info = zoneinfo.ZoneInfo(zone)
    for hours in range(0, 2 * 365 * 24, 7):
        moment = start + datetime.timedelta(hours=hours)
        mine, libc = moment.astimezone(info), moment.astimezone()
        if (mine.utcoffset(), mine.tzname()) != (libc.utcoffset(), libc.tzname()):
            bad.append((zone, moment.isoformat(), str(mine), str(libc)))
            break
print(bad)
"""


def test_every_lane_zone_is_a_zoneinfo_key_that_agrees_with_the_c_library(tmp_path: Path) -> None:
    folder = zonefiles.write(tmp_path / "zoneinfo")
    done = subprocess.run(
        [sys.executable, "-c", CHECK, str(folder), *zonefiles.LANE_ZONES],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    assert done.stdout.strip() == "[]", done.stdout
    assert {"UTC0", "LGE-14", "LGS+5LGD,M3.2.0,M11.1.0", "LGH-5:30"} <= set(zonefiles.LANE_ZONES)
