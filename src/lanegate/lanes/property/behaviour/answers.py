"""Outside the sandbox: a driver's answers file, read with its size and shape checked.

The file was written inside a sandbox where head code ran, so it is data from an adversary: read
at most `MAX_FILE_BYTES`, every line parsed as JSON (no pickle, no eval) and checked against the
one shape the driver writes (`driver`); anything else makes the whole file `BadAnswers`, named. A
case without an answer (the process ended early) is answered `crash: no answer`.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanegate.errors import LanegateError

MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024
MAX_VALUE_DEPTH = 40
MAX_VALUE_NODES = 20000
ERRORS = frozenset({"timeout", "oversized", "skipped"})


class BadAnswers(LanegateError):
    """An answers file that is not what the driver writes."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """One case's answer on one version: `calls` (canonical JSON per call: what it returned or
    raised, and the arguments it changed) or an `error`."""

    calls: tuple[str, ...] = ()
    error: str = ""  # "timeout" | "oversized" | "skipped" | "crash: ..."

    @property
    def answered(self) -> bool:
        return not self.error


def read_bounded(path: Path, limit: int, what: str) -> bytes:
    """The bytes of a file a sandboxed process wrote, at most `limit` (raises `BadAnswers`)."""
    try:  # never through a link the process left there, nor from a pipe that never ends
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        raise BadAnswers(f"no {what} file was written (or it is a link)") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise BadAnswers(f"the {what} file is not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise BadAnswers(f"the {what} file passed {limit} bytes")
    return data


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The file's JSON lines (raises `BadAnswers`)."""
    data = read_bounded(path, MAX_FILE_BYTES, "answers")
    lines: list[dict[str, Any]] = []
    for number, raw in enumerate(data.splitlines(), 1):
        if len(raw) > MAX_LINE_BYTES:
            raise BadAnswers(f"line {number} passed {MAX_LINE_BYTES} bytes")
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            raise BadAnswers(f"line {number} is not JSON") from None
        if not isinstance(record, dict):
            raise BadAnswers(f"line {number} is not an object")
        lines.append(record)
    if not lines:
        raise BadAnswers("the answers file is empty")
    return lines


def unavailable(lines: list[dict[str, Any]]) -> str:
    """Why the driver could not reach the function ("" when it did)."""
    first = lines[0]
    if first == {"ready": True}:
        return ""
    if set(first) == {"unavailable"} and isinstance(first["unavailable"], str):
        return first["unavailable"][:500]
    raise BadAnswers("line 1 is neither ready nor unavailable")


def check_value(data: Any) -> None:
    """Raise `BadAnswers` unless `data` is bounded JSON (depth and node count)."""
    stack = [(data, 0)]
    nodes = 0
    while stack:
        value, depth = stack.pop()
        nodes += 1
        if nodes > MAX_VALUE_NODES or depth > MAX_VALUE_DEPTH:
            raise BadAnswers("an answer passed the size or depth an encoding has")
        if isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, dict):
            if not all(isinstance(k, str) for k in value):
                raise BadAnswers("an answer has a key that is not a string")
            stack.extend((v, depth + 1) for v in value.values())
        elif value is not None and not isinstance(value, (bool, int, float, str)):
            raise BadAnswers("an answer holds what JSON has no type for")


def generated(lines: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str]:
    """A generate job's calls and why there are none ("" when there are)."""
    if len(lines) != 2 or set(lines[1]) - {"generated", "reason", "dropped"}:
        raise BadAnswers("a generate job answers with exactly one record")
    calls, reason = lines[1].get("generated"), lines[1].get("reason", "")
    if not isinstance(calls, list) or not isinstance(reason, str):
        raise BadAnswers("the generate record has the wrong shape")
    for call in calls:
        check_call(call)
    return calls, reason[:500]


def check_call(call: Any) -> None:
    """Raise `BadAnswers` unless `call` is `{"args": [...], "kwargs": [[name, value], ...]}`."""
    if not isinstance(call, dict) or set(call) != {"args", "kwargs"}:
        raise BadAnswers("a call is not {args, kwargs}")
    args, kwargs = call["args"], call["kwargs"]
    if not isinstance(args, list) or not isinstance(kwargs, list):
        raise BadAnswers("a call's args or kwargs is not a list")
    for pair in kwargs:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
            raise BadAnswers("a keyword argument is not [name, value]")
    check_value(call)


def outcomes(lines: list[dict[str, Any]], cases: list[list[Any]]) -> list[Outcome]:
    """An evaluate job's answer per case, in case order."""
    found: dict[int, Outcome] = {}
    for number, record in enumerate(lines[1:], 2):
        index = record.get("i")
        if type(index) is not int or not 0 <= index < len(cases):
            raise BadAnswers(f"line {number} names no case of this job")
        if index in found:
            raise BadAnswers(f"line {number} answers case {index} a second time")
        found[index] = _outcome(record, len(cases[index]), number)
    missing = Outcome(error="crash: no answer (the process ended)")
    return [found.get(i, missing) for i in range(len(cases))]


def _outcome(record: dict[str, Any], calls: int, number: int) -> Outcome:
    if set(record) == {"i", "error"}:
        error = record["error"]
        if isinstance(error, str) and (error in ERRORS or error.startswith("crash: ")):
            return Outcome(error=error[:200])
        raise BadAnswers(f"line {number} has an unknown error")
    if set(record) != {"i", "calls"} or not isinstance(record["calls"], list):
        raise BadAnswers(f"line {number} is neither an answer nor an error")
    answers = record["calls"]
    if len(answers) != calls:
        raise BadAnswers(f"line {number} answers {len(answers)} calls of {calls}")
    texts = []
    for answer in answers:
        if not isinstance(answer, dict):
            raise BadAnswers(f"line {number}: an answer is not one of ok, raises, bad")
        if "mutated" in answer:
            _check_mutated(answer["mutated"], number)
        rest = [(k, v) for k, v in answer.items() if k != "mutated"]
        if len(rest) != 1:
            raise BadAnswers(f"line {number}: an answer is not one of ok, raises, bad")
        ((kind, value),) = rest
        if kind == "ok":
            check_value(value)
        elif kind not in ("raises", "bad") or not isinstance(value, str) or len(value) > 200:
            raise BadAnswers(f"line {number}: an answer is not one of ok, raises, bad")
        texts.append(json.dumps(answer, sort_keys=True))
    return Outcome(calls=tuple(texts))


def _check_mutated(data: Any, number: int) -> None:
    """The arguments as a call left them: `{"args": [...], "kwargs": [[name, value], ...]}`."""
    try:
        check_call(data)
    except BadAnswers:
        raise BadAnswers(
            f"line {number}: an answer's changed arguments have the wrong shape"
        ) from None
