"""A shifted wall clock inside one replay process, for the clock dimension's batch runs.

libfaketime (`LD_PRELOAD`) would shift the clock of the whole process, but under CPython 3.11+ it
breaks `time.sleep` (`clock_nanosleep` returns EINVAL: checked on Debian 12 with faketime 0.9.10) and
slows every timed wait, which would turn stable tests into failures. This module shifts the wall
clock the way freezegun does, in-process and only while a clock run is active: `time.time`,
`time.time_ns`, `time.clock_gettime(CLOCK_REALTIME)` (and `_ns`), the no-argument forms of `time.localtime`, `gmtime`, `ctime`, `asctime` and
`strftime`, and `datetime.datetime.now/utcnow/today` and `datetime.date.today` (through subclasses
that look like the originals: same names, reprs and pickling, and `isinstance` true for instances
of the real classes that code imported earlier creates). Monotonic clocks never move: a real
machine's wall clock may jump, its monotonic clock does not.

File times move with it: the kernel stamps a file with the real time, so a test that writes a file
and checks it is fresh (`time.time() - path.stat().st_mtime < 60`) would fail every clock run of
an honest test. While the clock is moved, `os.stat`, `os.lstat` and `os.fstat` (and so `Path.stat`
and `os.path.getmtime`) report every time shifted by the offset, and `os.utime` given explicit
times stores them shifted back, so a round trip agrees; `os.scandir`'s `DirEntry.stat` (C code)
does not move.

`install()` must run before test modules import (`from datetime import datetime` binds the class at
import); the plugin calls it at its own import when the replay has clock runs. Outside a clock run
the offset is 0 and every function returns the real time.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os as _os
import time as _time
from collections.abc import Iterator
from typing import Any, SupportsIndex

_offset = 0.0
_installed = False
_real_time = _time.time
_real_time_ns = _time.time_ns
_real_localtime = _time.localtime
_real_gmtime = _time.gmtime
_real_ctime = _time.ctime
_real_asctime = _time.asctime
_real_strftime = _time.strftime
_real_clock_gettime = _time.clock_gettime
_real_clock_gettime_ns = _time.clock_gettime_ns
_RealDatetime = _dt.datetime
_RealDate = _dt.date


def now() -> float:
    """The (shifted) wall clock, in seconds since the epoch."""
    return _real_time() + _offset


def _time_ns() -> int:
    return _real_time_ns() + int(_offset * 1e9)


def _localtime(secs: float | SupportsIndex | None = None) -> _time.struct_time:
    return _real_localtime(now() if secs is None else secs)


def _gmtime(secs: float | SupportsIndex | None = None) -> _time.struct_time:
    return _real_gmtime(now() if secs is None else secs)


def _ctime(secs: float | SupportsIndex | None = None) -> str:
    return _real_ctime(now() if secs is None else secs)


def _clock_gettime(clock: int) -> float:
    real = _real_clock_gettime(clock)
    return real + _offset if clock == _time.CLOCK_REALTIME else real


def _clock_gettime_ns(clock: int) -> int:
    real = _real_clock_gettime_ns(clock)
    return real + int(_offset * 1e9) if clock == _time.CLOCK_REALTIME else real


def _asctime(t: Any = None) -> str:
    return _real_asctime(_localtime() if t is None else t)


def _strftime(fmt: str, t: Any = None) -> str:
    return _real_strftime(fmt, _localtime() if t is None else t)


class _DatetimeMeta(type):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, _RealDatetime)


class _DateMeta(type):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, _RealDate)


class _Datetime(_dt.datetime, metaclass=_DatetimeMeta):
    @classmethod
    def now(cls, tz: _dt.tzinfo | None = None) -> Any:
        return cls.fromtimestamp(now(), tz)

    @classmethod
    def utcnow(cls) -> Any:
        return cls.fromtimestamp(now(), _dt.UTC).replace(tzinfo=None)

    @classmethod
    def today(cls) -> Any:
        return cls.fromtimestamp(now())

    def __repr__(self) -> str:  # a heap type's repr omits the module: say it like the original
        return "datetime." + _RealDatetime.__repr__(self)


class _Date(_dt.date, metaclass=_DateMeta):
    @classmethod
    def today(cls) -> Any:
        return cls.fromtimestamp(now())

    def __repr__(self) -> str:
        return "datetime." + _RealDate.__repr__(self)


for _fake, _real in ((_Datetime, _RealDatetime), (_Date, _RealDate)):
    _fake.__name__ = _real.__name__
    _fake.__qualname__ = _real.__qualname__
    _fake.__module__ = _real.__module__
    _fake.__reduce_ex__ = _real.__reduce_ex__  # type: ignore[method-assign]


_real_stat = _os.stat
_real_lstat = _os.lstat
_real_fstat = _os.fstat
_real_utime = _os.utime
# Linux's stat_result: 10 sequence fields (int times at 7-9), the float and ns times, then
# st_blksize, st_blocks, st_rdev; other layouts keep the real file times
_STAT_TAIL = ("st_blksize", "st_blocks", "st_rdev")
_SHIFTS_STAT = _os.stat_result.n_fields == 16 + len(_STAT_TAIL)


def _shifted_stat(real: _os.stat_result) -> _os.stat_result:
    """`real` with its access, modification and change times moved by the offset."""
    if not _offset:
        return real
    ns = int(_offset * 1e9)
    floats = (real.st_atime + _offset, real.st_mtime + _offset, real.st_ctime + _offset)
    return _os.stat_result(
        (
            *real[:7],
            *(int(t) for t in floats),
            *floats,
            real.st_atime_ns + ns,
            real.st_mtime_ns + ns,
            real.st_ctime_ns + ns,
            *(getattr(real, name) for name in _STAT_TAIL),
        )
    )


def _stat(*args: Any, **kwargs: Any) -> _os.stat_result:
    return _shifted_stat(_real_stat(*args, **kwargs))


def _lstat(*args: Any, **kwargs: Any) -> _os.stat_result:
    return _shifted_stat(_real_lstat(*args, **kwargs))


def _fstat(fd: int) -> _os.stat_result:
    return _shifted_stat(_real_fstat(fd))


def _utime(path: Any, times: Any = None, *, ns: Any = None, **kwargs: Any) -> None:
    if _offset and times is not None:
        times = (times[0] - _offset, times[1] - _offset)
    if _offset and ns is not None:
        shift = int(_offset * 1e9)
        ns = (ns[0] - shift, ns[1] - shift)
    if ns is None:
        _real_utime(path, times, **kwargs)
    else:
        _real_utime(path, times, ns=ns, **kwargs)


def install() -> None:
    """Route the wall-clock functions and classes, and file times, through the offset
    (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    if _SHIFTS_STAT:
        for name, fake in (
            ("stat", _stat),
            ("lstat", _lstat),
            ("fstat", _fstat),
            ("utime", _utime),
        ):
            real = getattr(_os, name)
            fake.__name__, fake.__qualname__, fake.__doc__ = (
                real.__name__,
                real.__name__,
                real.__doc__,
            )
            setattr(_os, name, fake)
            # `shutil.rmtree` and others ask whether `os.stat` is in these sets
            for group in (_os.supports_dir_fd, _os.supports_fd, _os.supports_follow_symlinks):
                if real in group:
                    group.add(fake)
    _time.time = now
    _time.time_ns = _time_ns
    _time.localtime = _localtime
    _time.gmtime = _gmtime
    _time.ctime = _ctime
    _time.asctime = _asctime
    _time.strftime = _strftime
    _time.clock_gettime = _clock_gettime
    _time.clock_gettime_ns = _clock_gettime_ns
    _dt.datetime = _Datetime  # type: ignore[misc]
    _dt.date = _Date  # type: ignore[misc]


def offset_for(hours: int, lead: float, real: float | None = None) -> float:
    """The offset that puts the clock `hours` ahead and `lead` seconds before a whole second
    (`real`: the real time now, read when not given), never behind the shifted time: a lead longer
    than what is left of the second goes to the next one (the clock read just before the shift must
    not come after a read inside it)."""
    real = _real_time() if real is None else real
    shifted = real + hours * 3600
    target = float(int(shifted) + 1) - lead
    if target < shifted:  # every lead is under a second
        target += 1.0
    return target - real


DST_HOUR, DST_MINUTE = 0, 30
_YEAR_HOURS = 367 * 24


def dst_offset(start: bool, real: float | None = None) -> float:
    """The offset that puts the clock at 00:30 local time (before the change, so that `+ 24 h`
    crosses it) on the day of the current zone's (`TZ`) next daylight-saving start (`start`) or
    end, always ahead of now (a clock that moved back would fail an honest test comparing with a
    time it took earlier); 0 when the zone has no such change within two years. `real`: the real
    time now, read when not given."""
    real = _real_time() if real is None else real
    want = 1 if start else 0
    base = int(real)
    isdst = _real_localtime(base).tm_isdst
    for hour in range(1, 2 * _YEAR_HOURS):
        seen = _real_localtime(base + hour * 3600).tm_isdst
        if seen == isdst:
            continue
        isdst = seen
        if seen != want:
            continue
        day = _real_localtime(base + (hour - 1) * 3600)  # just before the change: its local day
        target = _time.mktime(
            (day.tm_year, day.tm_mon, day.tm_mday, DST_HOUR, DST_MINUTE, 0, 0, 0, -1)
        )
        if target > real:
            return target - real
    return 0.0


# position -> (does this local date hold it, local hour, minute, second): `CALENDAR_POSITIONS`
def _last(day: _dt.date) -> bool:
    return (day + _dt.timedelta(days=1)).month != day.month


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _next_month_days(day: _dt.date) -> int:
    first = (day.replace(day=1) + _dt.timedelta(days=32)).replace(day=1)
    return ((first + _dt.timedelta(days=32)).replace(day=1) - first).days


_CALENDAR: dict[str, tuple[Any, int, int, float]] = {
    "month-end-31": (lambda d: d.day == 31, 23, 30, 0.0),
    "jan-31": (lambda d: d.month == 1 and d.day == 31, 12, 0, 0.0),
    "31-before-30": (lambda d: d.day == 31 and _next_month_days(d) == 30, 12, 0, 0.0),
    "year-end-noon": (lambda d: d.month == 12 and d.day == 31, 12, 0, 0.0),
    "month-end-30": (lambda d: d.day == 30 and _last(d), 12, 0, 0.0),
    "month-start": (lambda d: d.day == 1, 0, 30, 0.0),
    "feb-29": (lambda d: d.month == 2 and d.day == 29, 12, 0, 0.0),
    "feb-28-common": (lambda d: d.month == 2 and d.day == 28 and not _leap(d.year), 23, 30, 0.0),
    "year-end": (lambda d: d.month == 12 and d.day == 31, 23, 30, 0.0),
    "year-start": (lambda d: d.month == 1 and d.day == 1, 0, 30, 0.0),
    "midnight": (lambda d: True, 23, 59, 59.75),
}
_SEARCH_DAYS = 9 * 366  # 29 February is at most eight years away (1900, 2100: no leap day)


def calendar_offset(position: str, real: float | None = None) -> float:
    """The offset that moves the clock ahead to the next local day (from tomorrow, in the current
    zone, `TZ`) holding `position` (`dimensions.CALENDAR_POSITIONS`), at that position's local time;
    0 for a position it does not know. `real`: the real time now, read when not given."""
    real = _real_time() if real is None else real
    rule = _CALENDAR.get(position)
    if rule is None:
        return 0.0
    holds, hour, minute, second = rule
    today = _RealDate(*_real_localtime(real)[:3])
    for ahead in range(1, _SEARCH_DAYS):
        day = today + _dt.timedelta(days=ahead)
        if holds(day):
            whole = int(second)
            target = _time.mktime((day.year, day.month, day.day, hour, minute, whole, 0, 0, -1))
            return target + (second - whole) - real
    return 0.0


@contextlib.contextmanager
def shifted(offset: float) -> Iterator[None]:
    """The wall clock moved by `offset` seconds while the block runs."""
    global _offset
    saved = _offset
    _offset = offset
    try:
        yield
    finally:
        _offset = saved
