"""Inside the sandbox: draw a function's inputs, or call it on given inputs, each in a fresh fork.

One job (a JSON file the lane wrote, mounted read-only) per process. `generate` draws inputs with
Hypothesis from the function's annotations (at the base); `evaluate` runs each case (one call, or a
short sequence of calls sharing state) in a child forked for it, so that no case sees what an
earlier one left behind, and a case that hangs is killed after `call_timeout` seconds. The child
encodes its answers (`encode`) and sends them through a pipe the parent reads at most `max_answer`
bytes of; the parent writes one JSON line per case to the answers file. What the lane reads back is
validated there (`answers`): nothing written here is trusted.
"""

from __future__ import annotations

import inspect
import json
import os
import select
import signal
import time
import typing
from pathlib import Path
from typing import Any

from lanegate.lanes.property.behaviour.encode import (
    MAX_ITEMS_PULLED,
    decodable,
    decode,
    encode,
    receiver,
    receiver_decodable,
)
from lanegate.lanes.property.behaviour.target import Method, Unavailable, resolve

OMIT = object()
NOT_REBUILT = 97  # a case's child exit: the instance its method is called on cannot be rebuilt


def main(job_path: str) -> None:
    """Run the job at `job_path` (called from the generated test)."""
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    fd = os.open(job["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        try:
            function = resolve(job["path"], job["qualname"])
        except Unavailable as exc:
            _line(fd, {"unavailable": str(exc)[:500]})
            return
        _line(fd, {"ready": True})
        if job["mode"] == "generate":
            _line(fd, _generate(function, int(job["count"]), int(job["seed"])))
        else:
            _evaluate(fd, function, job)
    finally:
        os.close(fd)


def _line(fd: int, record: dict[str, Any]) -> None:
    os.write(fd, json.dumps(record, sort_keys=True).encode("ascii") + b"\n")


# --- drawing inputs -------------------------------------------------------------------------------


def _strategies(function: Any) -> tuple[dict[str, Any], list[inspect.Parameter], str]:
    """One strategy per parameter (its annotation's, or omitted when it has a default), the
    parameters, and why there is none for some parameter ("" when there is for every one)."""
    from hypothesis import strategies as st

    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return {}, [], "its signature cannot be read"
    try:
        hints = typing.get_type_hints(
            function.function if isinstance(function, Method) else function
        )
    except Exception:  # noqa: BLE001 - an annotation naming what is not importable
        hints = {}
    strategies: dict[str, Any] = {}
    if isinstance(function, Method) and parameters:  # `self`: an instance built from annotations
        owner = function.owner
        instances: Any = st.from_type(owner).filter(lambda value: type(value) is owner)
        if not _draws(instances):
            name = owner.__qualname__[:80]
            return {}, parameters, f"no strategy for parameter {parameters[0].name} ({name})"
        strategies[parameters[0].name] = instances
        parameters_left = parameters[1:]
    else:
        parameters_left = parameters
    for parameter in parameters_left:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        has_default = parameter.default is not parameter.empty
        if parameter.name in hints:
            strategy = st.from_type(hints[parameter.name])
            if not _draws(strategy):
                if not has_default:
                    shown = str(hints[parameter.name])[:80]
                    return {}, parameters, f"no strategy for parameter {parameter.name} ({shown})"
                strategy = st.just(OMIT)
            elif has_default:
                strategy = st.one_of(st.just(OMIT), strategy)
        elif has_default:
            strategy = st.just(OMIT)
        else:
            return {}, parameters, f"no strategy for parameter {parameter.name} (no annotation)"
        strategies[parameter.name] = strategy
    return strategies, parameters, ""


def _draws(strategy: Any) -> bool:
    """Whether `strategy` draws a value (`from_type` fails only when first drawn from)."""
    from hypothesis import HealthCheck, Phase, given, settings

    @settings(database=None, max_examples=1, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(strategy)
    def one(value: Any) -> None:
        pass

    try:
        one()
    except Exception:  # noqa: BLE001 - ResolutionFailed, InvalidArgument, errors of head code
        return False
    return True


def _call(
    parameters: list[inspect.Parameter], values: dict[str, Any], method: bool
) -> dict[str, Any] | None:
    """A drawn example as an encoded call (None when a value cannot be carried)."""
    args: list[Any] = []
    kwargs: list[list[Any]] = []
    omitted = False
    if method:
        instance = encode(values[parameters[0].name])
        if not receiver_decodable(instance):
            return None
        args.append(instance)
        parameters = parameters[1:]
    for parameter in parameters:
        if parameter.name not in values:
            continue
        value = values[parameter.name]
        if value is OMIT:
            omitted = True
            continue
        data = encode(value)
        if not decodable(data):
            return None
        if parameter.kind is parameter.KEYWORD_ONLY or (
            omitted and parameter.kind is parameter.POSITIONAL_OR_KEYWORD
        ):
            kwargs.append([parameter.name, data])
        elif parameter.kind is parameter.POSITIONAL_ONLY and omitted:
            continue  # a positional-only one after an omitted one: omitted too
        else:
            args.append(data)
    return {"args": args, "kwargs": kwargs}


def _generate(function: Any, count: int, seed: int) -> dict[str, Any]:
    """Up to `count` calls drawn with Hypothesis under `seed` (the same every time)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fixed_seed
    from hypothesis import strategies as st

    strategies, parameters, reason = _strategies(function)
    if reason:
        return {"generated": [], "reason": reason}
    drawn: list[dict[str, Any]] = []
    dropped = [0]

    @fixed_seed(seed)
    @settings(database=None, max_examples=count, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(st.fixed_dictionaries(strategies))
    def draw(values: dict[str, Any]) -> None:
        call = _call(parameters, values, isinstance(function, Method))
        if call is None:
            dropped[0] += 1
        else:
            drawn.append(call)

    try:
        draw()
    except Exception as exc:  # noqa: BLE001
        return {"generated": [], "reason": f"drawing inputs failed: {type(exc).__name__}"}
    reason = "" if drawn else "its arguments' values cannot be carried between processes"
    return {"generated": drawn, "reason": reason, "dropped": dropped[0]}


# --- calling --------------------------------------------------------------------------------------


def _evaluate(fd: int, function: Any, job: dict[str, Any]) -> None:
    timeout = float(job["call_timeout"])
    limit = int(job["max_answer"])
    stuck = 0
    for index, case in enumerate(job["cases"]):
        if stuck >= int(job["max_timeouts"]):
            _line(fd, {"i": index, "error": "skipped"})
            continue
        answer = _fork_case(function, case, timeout, limit)
        stuck += answer.get("error") == "timeout"
        _line(fd, {"i": index, **answer})


def _run_case(function: Any, case: list[dict[str, Any]]) -> bytes:
    """In the child: every call of the case, each answer encoded: what it returned (a coroutine
    awaited first) or raised, and the arguments as the call left them when it changed them."""
    out: list[dict[str, Any]] = []
    for call in case:
        args = _arguments(function, call["args"])
        kwargs = {name: decode(value) for name, value in call["kwargs"]}
        try:
            answer: dict[str, Any] = {"ok": encode(_settled(function(*args, **kwargs)))}
        except BaseException as exc:  # noqa: BLE001 - SystemExit too: an answer like any other
            kind = type(exc)
            module = kind.__module__ if kind.__module__ != "builtins" else ""
            answer = {"raises": f"{module}.{kind.__qualname__}".lstrip(".")[:200]}
        after = {
            "args": [encode(a) for a in args],
            "kwargs": [[k, encode(v)] for k, v in kwargs.items()],
        }
        before = {"args": call["args"], "kwargs": call["kwargs"]}
        if isinstance(function, Method):  # what a caller sees of the instance: its public state
            after["args"][0] = _public(after["args"][0], call["args"][0]["type"])
            before["args"] = [_public(call["args"][0], call["args"][0]["type"]), *call["args"][1:]]
        if after != before:
            answer["mutated"] = after  # a side effect on what the caller passed is an answer too
        out.append(answer)
    return json.dumps(out, sort_keys=True).encode("ascii")


class _NotRebuilt(Exception):
    """A case's receiver is not an instance of this version's class (or not carried at all)."""


def _arguments(function: Any, data: list[Any]) -> list[Any]:
    """A call's positional arguments as values; a method's first one rebuilt as an instance of
    this version's class from the state it carries."""
    if not isinstance(function, Method):
        if data and not decodable(data[0]):
            raise _NotRebuilt
        return [decode(a) for a in data]
    if not data or not receiver_decodable(data[0]) or data[0]["type"] != function.type_name():
        raise _NotRebuilt
    return [receiver(data[0], function.owner), *(decode(a) for a in data[1:])]


def _public(state: Any, type_name: str) -> Any:
    """An encoded instance with only the fields a caller may read (no leading underscore), under
    the type name it was given as (a moved class holds the same state): a cache or a renamed
    private field is the class's own business."""
    if not isinstance(state, dict) or not isinstance(state.get("fields"), list):
        return state
    fields = [f for f in state["fields"] if not str(f[0]).startswith("_")]
    return {**state, "type": type_name, "fields": fields}


def _settled(value: Any) -> Any:
    """`value`, or what it comes to when it is awaitable (a coroutine run to its end on a loop
    of its own; an async generator's items collected): an `async def` answers by its result."""
    if inspect.iscoroutine(value) or inspect.isasyncgen(value):
        import asyncio

        async def collect(agen: Any) -> list[Any]:
            items: list[Any] = []
            async for item in agen:
                if len(items) >= MAX_ITEMS_PULLED:
                    items.append(...)  # an endless generator: this far
                    break
                items.append(item)
            return items

        runner = value if inspect.iscoroutine(value) else collect(value)
        loop = asyncio.new_event_loop()
        try:
            return loop.run_until_complete(runner)
        finally:
            loop.close()
    return value


def _fork_case(
    function: Any, case: list[dict[str, Any]], timeout: float, limit: int
) -> dict[str, Any]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: answer, then leave without running anything of the parent's
        os.close(read)
        try:
            data = _run_case(function, case)
        except _NotRebuilt:
            os._exit(NOT_REBUILT)
        except BaseException:  # noqa: BLE001 - encoding met a hostile object
            data = b'[{"bad": "its answer could not be encoded"}]'
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(write, view[: 1 << 16]) :]
        finally:
            os._exit(0)
    os.close(write)
    chunks: list[bytes] = []
    size = 0
    deadline = time.monotonic() + timeout
    error = ""
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                error = "timeout"
                break
            ready, _, _ = select.select([read], [], [], left)
            if not ready:
                continue
            chunk = os.read(read, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                error = "oversized"
                break
    finally:
        os.close(read)
        status = _reap(pid, deadline, kill=bool(error))
    if error or status is None:  # None: it closed its pipe but went on running
        return {"error": error or "timeout"}
    code = os.waitstatus_to_exitcode(status)
    if code == NOT_REBUILT and not chunks:
        return {"error": "crash: its receiver cannot be rebuilt here"}
    if code != 0 or not chunks:
        return {"error": f"crash: exit {code}" if code >= 0 else f"crash: signal {-code}"}
    try:
        return {"calls": json.loads(b"".join(chunks))}
    except (ValueError, RecursionError):
        return {"error": "crash: unreadable answer"}


def _reap(pid: int, deadline: float, *, kill: bool) -> int | None:
    """The child's wait status; None when it was still running at `deadline` (then killed)."""
    if not kill:
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            time.sleep(0.005)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None
