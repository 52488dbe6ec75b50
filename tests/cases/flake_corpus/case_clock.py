"""Time zone and time of day: local time assumed to be UTC (flaky) and zone-aware look-alikes."""

import time
from datetime import datetime, timezone


def test_local_hour_is_utc_hour():
    assert time.localtime().tm_hour == time.gmtime().tm_hour


def test_local_date_is_utc_date():
    assert datetime.now().date() == datetime.now(timezone.utc).date()


def test_epoch_local_year():
    assert datetime.fromtimestamp(0).year == 1970


def test_zone_name_is_utc():
    assert time.strftime("%Z") in ("UTC", "GMT")


def test_mktime_roundtrip_utc():
    assert time.mktime(time.gmtime(86400)) == 86400


def test_epoch_utc_year():
    assert datetime.fromtimestamp(0, timezone.utc).year == 1970


def test_gmtime_epoch():
    assert time.gmtime(0).tm_year == 1970


def test_aware_now_has_utc_zone():
    assert datetime.now(timezone.utc).utcoffset().total_seconds() == 0


def test_local_roundtrip():
    stamp = 1_700_000_000
    assert time.mktime(time.localtime(stamp)) == stamp


def test_clock_moves_forward():
    first = time.monotonic()
    assert time.monotonic() >= first
