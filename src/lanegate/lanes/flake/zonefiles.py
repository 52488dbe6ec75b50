"""Time zone files for the POSIX `TZ` strings the replays set, so that `zoneinfo` knows them too.

The lane sets `TZ` to POSIX strings (`UTC0`, `LGE-14`, `LGS+5LGD,M3.2.0,M11.1.0`): the C library
reads any of them, and a name the C library does not know would be silently UTC. But a test may
hand `TZ` to `zoneinfo.ZoneInfo` (as `tzlocal` and many applications do), which looks a key up as a
file of the IANA database and knows none of them: an honest test that passes wherever `TZ` is unset
or an IANA name fails every replay. So every replay gets a folder with a TZif file per string the
lane may set (no transitions; the string itself as the footer, which RFC 8536 readers apply to all
times, DST rules included), first on `zoneinfo`'s search path (the plugin) and on `PYTHONTZPATH`
(a test's own Python subprocesses). The C library still reads `TZ` itself, so both agree.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

from lanegate.lanes.flake.dimensions import CALENDAR_POSITIONS, DST_CHANGES, WIDE_ZONES
from lanegate.lanes.flake.plan import ZONES

LANE_ZONES = tuple(
    dict.fromkeys(
        (
            *ZONES,
            *WIDE_ZONES,
            *(zone for zone, _ in DST_CHANGES),
            *(zone for _, zone in CALENDAR_POSITIONS),
        )
    )
)
_STD = re.compile(r"^(?P<name>[A-Za-z]{3,})(?P<sign>[+-]?)(?P<h>\d{1,2})(?::(?P<m>\d{2}))?")


def tzif(posix: str) -> bytes:
    """A TZif (version 2) file whose only rule is the POSIX `TZ` string `posix`."""
    found = _STD.match(posix)
    if found is None:
        raise ValueError(f"not a POSIX TZ string with a standard offset: {posix!r}")
    west = int(found["h"]) * 3600 + int(found["m"] or 0) * 60  # POSIX counts west of UTC
    utoff = west if found["sign"] == "-" else -west
    abbr = found["name"].encode("ascii") + b"\0"

    def block() -> bytes:  # the header and data of one version: no transitions, one local type
        counts = struct.pack(">6l", 0, 0, 0, 0, 1, len(abbr))
        return b"TZif2" + b"\0" * 15 + counts + struct.pack(">lBB", utoff, 0, 0) + abbr

    return block() + block() + b"\n" + posix.encode("ascii") + b"\n"


def write(root: Path) -> Path:
    """Write a TZif file named after each of `LANE_ZONES` under `root` (a `/` in a string is a
    folder, as in a key of the IANA database); returns `root`."""
    for zone in LANE_ZONES:
        path = root / zone
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(tzif(zone))
    return root
