"""Outside the sandbox: the cases a function is called on, where each came from, and how they shrink.

A case is a short list of calls made in one fresh process (one call, or a sequence of two that
shares state: how a cache that ignores an argument shows). Calls are encoded (`encode`): args and
`[name, value]` kwargs. Sources: `recorded` (what the tests passed), `hypothesis` (drawn at the
base from its annotations), `literals` (a drawn or recorded call with one argument replaced by a
constant of the diff's changed or deleted lines, or one either side of it), `defaults` (a call with
its last argument left out: what a caller who leaves it out gets), `sequences` (a call followed by
the same call with one argument changed), `shrinking` (simpler cases tried once a
difference is seen).
"""

from __future__ import annotations

import ast
import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from lanegate.lanes.property.behaviour.encode import encode

SOURCES = ("recorded", "hypothesis", "literals", "defaults", "sequences", "shrinking")
MAX_LITERAL_TEXT = 200
MAX_LITERAL_CASES = 60
LITERAL_BASES = 4  # calls the literals are put into
MAX_SEQUENCES = 20
DEFAULT_BASES = 8  # calls whose last argument is tried left out
MAX_SHRINK_CANDIDATES = 60

Call = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Case:
    """One case: its calls (encoded) and where it came from."""

    calls: tuple[str, ...]  # each call as canonical JSON
    source: str

    @property
    def key(self) -> str:
        return "\n".join(self.calls)

    def decoded(self) -> list[Call]:
        return [json.loads(c) for c in self.calls]


def canonical(call: Call) -> str:
    return json.dumps(call, sort_keys=True)


def case_of(calls: Iterable[Call], source: str) -> Case:
    return Case(tuple(canonical(c) for c in calls), source)


def size(case: Case) -> tuple[int, int, int, str]:
    """How big a case is: calls, then text length, then the magnitude of its numbers."""
    total = 0
    for call in case.decoded():
        total += sum(_magnitude(v) for v in _values(call))
    return (len(case.calls), len(case.key), total, case.key)


def _magnitude(data: Any) -> int:
    if isinstance(data, bool) or not isinstance(data, int):
        return 0
    return abs(data)


def _values(call: Call) -> list[Any]:
    return [*call["args"], *(v for _, v in call["kwargs"])]


# --- literals -------------------------------------------------------------------------------------


def literal_values(texts: Iterable[str]) -> list[Any]:
    """Each constant's value and one either side of it, encoded (texts that are not literals are
    left out; `ast.literal_eval` evaluates nothing else)."""
    out: list[Any] = []
    for text in texts:
        if len(text) > MAX_LITERAL_TEXT:
            continue
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        for near in _either_side(value):
            data = encode(near)
            if data not in out:
                out.append(data)
    return out


def _either_side(value: Any) -> list[Any]:
    if isinstance(value, bool) or value is None:
        return [value]
    if isinstance(value, int):
        return [value - 1, value, value + 1]
    if isinstance(value, float):
        if not math.isfinite(value):
            return [value]
        return [math.nextafter(value, -math.inf), value, math.nextafter(value, math.inf)]
    if isinstance(value, str):
        if not value:
            return [value, "a"]
        return [value, "", chr((ord(value[0]) + 1) % 0x110000) + value[1:]]
    if isinstance(value, bytes):
        if not value:
            return [value, b"a"]
        return [value, b"", bytes([(value[0] + 1) % 256]) + value[1:]]
    return []


def _kind(data: Any) -> str:
    if isinstance(data, bool):
        return "bool"
    if isinstance(data, int):
        return "int"
    if isinstance(data, str):
        return "str"
    if isinstance(data, dict) and data.get("$") in ("float", "bytes"):
        return str(data["$"])
    return ""


def literal_cases(bases: list[Call], literals: list[Any]) -> list[Case]:
    """Each literal put in place of each argument of its kind, in the first few calls."""
    out: list[Case] = []
    for call in bases[:LITERAL_BASES]:
        for replaced in _replacements(call, literals):
            out.append(case_of([replaced], "literals"))
            if len(out) >= MAX_LITERAL_CASES:
                return out
    return out


def _replacements(call: Call, values: list[Any]) -> Iterator[Call]:
    for position, current in enumerate(call["args"]):
        for value in values:
            if _kind(value) and _kind(value) == _kind(current) and value != current:
                args = list(call["args"])
                args[position] = value
                yield {"args": args, "kwargs": call["kwargs"]}
    for position, (name, current) in enumerate(call["kwargs"]):
        for value in values:
            if _kind(value) and _kind(value) == _kind(current) and value != current:
                kwargs = list(call["kwargs"])
                kwargs[position] = [name, value]
                yield {"args": call["args"], "kwargs": kwargs}


# --- defaults -------------------------------------------------------------------------------------


def default_cases(singles: list[Call]) -> list[Case]:
    """The first few calls with their last positional argument, or one keyword argument, left
    out: where a version has a default for it, that default is what a caller who leaves it out
    gets (a changed default shows though every test passes the argument); where the base has none,
    its TypeError is a call shape it refuses, which the scorer sets aside."""
    out: list[Case] = []
    for call in singles[:DEFAULT_BASES]:
        if call["args"]:
            out.append(case_of([{"args": call["args"][:-1], "kwargs": call["kwargs"]}], "defaults"))
        for name, _value in call["kwargs"]:
            kept = [kw for kw in call["kwargs"] if kw[0] != name]
            out.append(case_of([{"args": call["args"], "kwargs": kept}], "defaults"))
    return out


# --- sequences ------------------------------------------------------------------------------------


def sequence_cases(singles: list[Call]) -> list[Case]:
    """A call, then the same call with one argument taken from the next call: what a cache keyed
    on too few arguments answers wrongly."""
    out: list[Case] = []
    for first, other in zip(singles, singles[1:], strict=False):
        if len(first["args"]) != len(other["args"]) or not first["args"]:
            continue
        for position in range(len(first["args"])):
            if first["args"][position] == other["args"][position]:
                continue
            args = list(first["args"])
            args[position] = other["args"][position]
            out.append(case_of([first, {"args": args, "kwargs": first["kwargs"]}], "sequences"))
            break
        if len(out) >= MAX_SEQUENCES:
            break
    return out


# --- shrinking ------------------------------------------------------------------------------------


def shrink_candidates(case: Case) -> list[Case]:
    """Cases one step simpler than `case`: a call left out, an argument made simpler, a keyword
    argument left out (its default then)."""
    calls = case.decoded()
    out: list[Case] = []
    if len(calls) > 1:
        out += [case_of(calls[i : i + 1], "shrinking") for i in range(len(calls))]
    for index, call in enumerate(calls):
        for simpler in _simpler_calls(call):
            out.append(case_of([*calls[:index], simpler, *calls[index + 1 :]], "shrinking"))
    if len(calls) > 1:  # a value the calls share, made simpler in all of them at once
        shared: list[Any] = []
        for call in calls:
            shared += [v for v in _values(call) if v not in shared]
        for value in shared:
            for simpler in simpler_values(value):
                out.append(case_of([_swap(c, value, simpler) for c in calls], "shrinking"))
    unique = {c.key: c for c in out if c.key != case.key}
    return sorted(unique.values(), key=size)[:MAX_SHRINK_CANDIDATES]


def _swap(call: Call, old: Any, new: Any) -> Call:
    return {
        "args": [new if v == old else v for v in call["args"]],
        "kwargs": [[k, new if v == old else v] for k, v in call["kwargs"]],
    }


def _simpler_calls(call: Call) -> Iterator[Call]:
    for position, value in enumerate(call["args"]):
        for simpler in simpler_values(value):
            args = list(call["args"])
            args[position] = simpler
            yield {"args": args, "kwargs": call["kwargs"]}
    for position, (name, value) in enumerate(call["kwargs"]):
        yield {"args": call["args"], "kwargs": [kw for kw in call["kwargs"] if kw[0] != name]}
        for simpler in simpler_values(value):
            kwargs = list(call["kwargs"])
            kwargs[position] = [name, simpler]
            yield {"args": call["args"], "kwargs": kwargs}


def simpler_values(data: Any) -> list[Any]:
    """Values one step simpler than an encoded one (never itself)."""
    out: list[Any] = []
    if data is True:
        out = [False]
    elif isinstance(data, int) and not isinstance(data, bool):
        step = data - 1 if data > 0 else data + 1
        # toward zero by halves, all in one round: a large number shrinks in a few rounds
        halves = [int(data / 2**k) for k in range(1, min(64, abs(data).bit_length() + 1))]
        out = [0, *halves, step]
    elif isinstance(data, str):
        out = ["", data[: len(data) // 2], data[:-1], data[1:]]
    elif isinstance(data, list):
        out = [
            [],
            data[: len(data) // 2],
            *([data[:i] + data[i + 1 :]] for i in range(min(3, len(data)))),
        ]
    elif isinstance(data, dict) and data.get("$") == "float":
        number = float(data["r"])
        if math.isfinite(number):
            out = [encode(0.0), encode(float(math.trunc(number))), encode(number / 2)]
    elif isinstance(data, dict) and data.get("$") in ("tuple", "set", "frozenset", "dict"):
        items = data["items"]
        out = [{**data, "items": items[:i] + items[i + 1 :]} for i in range(min(3, len(items)))]
    unique: list[Any] = []
    for value in out:
        if value != data and value not in unique:
            unique.append(value)
    return unique
