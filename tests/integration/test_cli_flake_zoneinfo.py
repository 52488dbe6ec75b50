"""A test that hands `TZ` to `zoneinfo` (as `tzlocal` and many applications do) passes the lane:
every POSIX string a replay sets (`UTC0`, `LGZ+6`, the DST and calendar zones) is a `zoneinfo` key
in the replay too, telling the same local time as the C library. Before, `ZoneInfo("UTC0")` raised
`ZoneInfoNotFoundError` in every replay, and the honest test failed the gate."""

from __future__ import annotations

from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

LOCAL = """\
import datetime
import os
from zoneinfo import ZoneInfo


def local_zone():
    return ZoneInfo(os.environ.get("TZ", "UTC"))


def test_local_zone_agrees_with_the_c_library():
    now = datetime.datetime.now(datetime.timezone.utc)
    assert now.astimezone(local_zone()).utcoffset() == now.astimezone().utcoffset()
"""


def test_a_test_reading_tz_through_zoneinfo_passes(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_local.py": LOCAL})
    assert flake(repo.path) == 0, capsys.readouterr().out
    (test,) = ledger(repo.path)["tests"]
    assert test["deterministic"] and {r["outcome"] for r in test["replays"]} == {"passed"}
    dimensions = {b["dimension"] for b in test["batches"]}
    assert {"zone", "dst", "calendar"} <= dimensions, dimensions  # it met every zone kind
