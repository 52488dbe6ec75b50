"""Inside the sandbox: a pytest plugin recording the arguments tests pass to the changed functions.

`-p lanegate.lanes.property.behaviour.record --lanegate-record-calls=JOB`: JOB names the functions
(file and qualified name) and where to write. A profile hook (`sys.setprofile`, and for threads
`threading.setprofile`) sees every Python call; on a call into one of the functions' code it reads
the parameters from the frame, encodes them (`encode`) and keeps the call when every value can be
carried back as a value (`decodable`; a method's instance, as its state: `receiver_decodable`): at most `MAX_CALLS` distinct calls per function, each at most
`MAX_CALL_BYTES`. Nothing here is trusted by the lane:
the file is validated on the way in (`recording`). Written after every test that added a call, and
when the session finishes.
"""

from __future__ import annotations

import inspect
import json
import os
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from lanegate.lanes.property.behaviour.encode import decodable, encode, receiver_decodable

MAX_CALLS = 64
MAX_CALL_BYTES = 4096


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("lanegate").addoption(
        "--lanegate-record-calls", default=None, help="JSON file: functions whose calls to record"
    )


class _Recorder:
    def __init__(self, job: dict[str, Any]) -> None:
        self.out = str(job["out"])
        # (real file, qualified name) -> function index
        self.wanted = {
            (os.path.realpath(f["path"]), f["qualname"].rsplit(".", 1)[-1]): i
            for i, f in enumerate(job["functions"])
        }
        self.qualnames = [str(f["qualname"]) for f in job["functions"]]
        self.files: set[str] = {path for path, _ in self.wanted}
        self.calls: list[dict[str, None]] = [{} for _ in job["functions"]]
        self.dropped = [0 for _ in job["functions"]]  # calls whose arguments cannot be carried
        self.seen_files: dict[str, str] = {}
        self.dirty = True

    def profile(self, frame: FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        code = frame.f_code
        filename = code.co_filename
        real = self.seen_files.get(filename)
        if real is None:
            real = self.seen_files[filename] = os.path.realpath(filename)
        if real not in self.files:
            return
        index = self.wanted.get((real, code.co_name))
        if index is None or getattr(code, "co_qualname", code.co_name) != self.qualnames[index]:
            return
        calls = self.calls[index]
        if len(calls) >= MAX_CALLS:
            return
        try:
            text = _call_text(frame, self.qualnames[index])
        except Exception:  # noqa: BLE001 - a hostile argument; that call is not kept
            text = None
        if text is None or len(text) > MAX_CALL_BYTES:
            self.dropped[index] += 1
            self.dirty = True
        elif text not in calls:
            calls[text] = None
            self.dirty = True

    def write(self) -> None:
        self.dirty = False
        data = {
            "calls": [[json.loads(text) for text in calls] for calls in self.calls],
            "dropped": self.dropped,
        }
        partial = Path(self.out + ".part")
        partial.write_text(json.dumps(data, sort_keys=True), encoding="ascii")
        os.replace(partial, self.out)  # a run killed mid-write leaves the last whole file


def _defaults(frame: FrameType, qualname: str) -> dict[str, object]:
    """The defaults of the function a frame runs, by parameter name ({} when it cannot be found
    from the frame's module by its qualified name)."""
    found: Any = frame.f_globals.get(qualname.split(".")[0])
    for part in qualname.split(".")[1:]:
        try:
            found = inspect.getattr_static(found, part)
        except AttributeError:
            return {}
    found = getattr(found, "__func__", found)  # a staticmethod's or classmethod's function
    if getattr(found, "__code__", None) is not frame.f_code:
        return {}
    code = frame.f_code
    positional = code.co_varnames[: code.co_argcount]
    values = tuple(found.__defaults__ or ())
    out = dict(zip(positional[len(positional) - len(values) :], values, strict=True))
    out.update(found.__kwdefaults__ or {})
    return out


def _call_text(frame: FrameType, qualname: str) -> str | None:
    """The call a frame is entering, encoded (None when a value cannot be carried), as it was
    made as far as a frame tells: an argument that is its parameter's default object itself is
    left out (the caller most likely left it out; each version then uses its own default), and
    the parameters after a positional one left out are passed by name. A method's instance is
    carried as its state when it is of the method's own class (`receiver`)."""
    code = frame.f_code
    flags = code.co_flags
    names = code.co_varnames
    positional = code.co_argcount
    keyword_only = code.co_kwonlyargcount
    values = frame.f_locals
    at = positional + keyword_only
    defaults = _defaults(frame, qualname)
    omitted = {n for n, d in defaults.items() if n in values and values[n] is d}
    if flags & inspect.CO_VARARGS and values[names[at]]:
        omitted -= set(names[:positional])  # extra positionals follow: every one was passed
    args: list[Any] = []
    kwargs: list[list[Any]] = []
    for index, name in enumerate(names[:at]):
        if name in omitted:
            continue
        if index < positional and len(args) == index:
            args.append(encode(values[name]))
        else:
            kwargs.append([name, encode(values[name])])
    if flags & inspect.CO_VARARGS:
        args.extend(encode(v) for v in values[names[at]])
        at += 1
    if flags & inspect.CO_VARKEYWORDS:
        extra = values[names[at]]
        kwargs.extend([str(k), encode(v)] for k, v in sorted(extra.items()))
    call = {"args": args, "kwargs": kwargs}
    owner = qualname.rpartition(".")[0]
    if (
        args
        and owner
        and type(values[names[0]]).__qualname__ == owner
        and receiver_decodable(args[0])
    ):
        carried = decodable(args[1:])  # `self` of the method's own class: its state
    else:
        carried = decodable(args)
    if not carried or not all(decodable(v) for _, v in kwargs):
        return None
    return json.dumps(call, sort_keys=True)


_KEY = pytest.StashKey[_Recorder]()
_CURRENT: list[_Recorder | None] = [None]


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("lanegate_record_calls")
    if not path:
        return
    recorder = _Recorder(json.loads(Path(path).read_text(encoding="utf-8")))
    config.stash[_KEY] = recorder
    _CURRENT[0] = recorder
    sys.setprofile(recorder.profile)
    threading.setprofile(recorder.profile)


def pytest_runtest_logfinish(nodeid: str) -> None:
    """After each test, what it added: a run stopped at its wall limit keeps what it recorded."""
    recorder = _CURRENT[0]
    if recorder is not None and recorder.dirty:
        recorder.write()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    recorder = session.config.stash.get(_KEY, None)
    if recorder is not None:
        sys.setprofile(None)
        recorder.write()
