"""Outside the sandbox: the calls the request's tests make into the changed functions, recorded at
head (`record`) and read back as data, bounded and checked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from lanegate.lanes.property.behaviour.answers import BadAnswers, check_call, read_bounded
from lanegate.lanes.property.behaviour.encode import call_decodable
from lanegate.lanes.property.behaviour.launch import Launcher
from lanegate.lanes.property.behaviour.model import BehaviourRequest
from lanegate.lanes.property.behaviour.record import MAX_CALLS
from lanegate.lanes.pytest_args import path_argument

MAX_FILE_BYTES = 4 * 1024 * 1024


def record_calls(
    launcher: Launcher, request: BehaviourRequest, wall: float
) -> tuple[list[list[dict[str, Any]]], list[str], float]:
    """Per function (in request order) the distinct calls its tests made, in a stable order, and
    why calls it got were not kept ("" when none was lost: the run answered and every call's
    arguments could be carried); the run's CPU seconds."""
    empty: list[list[dict[str, Any]]] = [[] for _ in request.functions]
    if not request.tests or not request.functions:
        return empty, ["" for _ in request.functions], 0.0
    functions = [
        {"path": str(request.repo / f.path), "qualname": f.qualname} for f in request.functions
    ]
    tests = [path_argument(t) for t in request.tests]
    # the tests may be many: their run gets at most half the budget's seconds (and a minute), and
    # what it recorded before it was stopped is used
    ran = launcher.recording(tests, functions, min(wall, max(60.0, request.cpu_seconds / 2)))
    try:
        calls, dropped = _read(ran.answers, len(functions))
    except BadAnswers as exc:
        ended = f" ({ran.ended})" if ran.ended else ""
        return empty, [f"recording the tests' calls failed: {exc}{ended}"] * len(functions), ran.cpu
    notes = [
        f"the tests called it {n} time(s) with arguments that cannot be carried to another "
        "process (builtin values can, and a method's own instance)"
        if n
        else ""
        for n in dropped
    ]
    return calls, notes, ran.cpu


def _read(path: Path, count: int) -> tuple[list[list[dict[str, Any]]], list[int]]:
    data = read_bounded(path, MAX_FILE_BYTES, "calls")
    try:
        record = json.loads(data)
    except (ValueError, RecursionError):
        raise BadAnswers("the calls file is not JSON") from None
    calls = record.get("calls") if isinstance(record, dict) else None
    if not isinstance(calls, list) or len(calls) != count:
        raise BadAnswers("the calls file does not list calls per function")
    out: list[list[dict[str, Any]]] = []
    for per_function in calls:
        if not isinstance(per_function, list) or len(per_function) > MAX_CALLS:
            raise BadAnswers(f"a function's calls are not a list of at most {MAX_CALLS}")
        kept: dict[str, dict[str, Any]] = {}
        for call in per_function:
            check_call(call)
            if call_decodable(call["args"], call["kwargs"]):
                kept.setdefault(json.dumps(call, sort_keys=True), call)
        out.append([kept[k] for k in sorted(kept)])
    dropped = record.get("dropped", [0] * count)
    if (
        not isinstance(dropped, list)
        or len(dropped) != count
        or not all(type(n) is int and n >= 0 for n in dropped)
    ):
        raise BadAnswers("the calls file's dropped counts are not a count per function")
    return out, dropped
