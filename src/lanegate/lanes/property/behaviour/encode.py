"""Values as bounded, structural, data-only JSON: how arguments and answers cross a process boundary.

Runs inside the sandbox (stdlib only): a return value is encoded there, by the process that made it,
so nothing outside ever unpickles or evaluates what head code produced. JSON's own types carry
`None`, `bool`, small `int`, `str` and `list`; everything else is a tagged object (`{"$": tag, ...}`):
floats by `repr` (so `1` and `1.0` differ, and NaN is a value), tuples, dicts and sets by their
items, large ints and long strings by length, a prefix and a digest, other objects by type name and
their fields (`__dict__` or `__slots__`), or by a `repr` when it shows a value. A value is encoded by
what it holds, never by how it prints: an iterator (a generator, `map`, `filter`, ...) is run and
encoded by the items it yields (and the exception that ended it, if one did), whatever kind of
iterator it is; a value that shows nothing but an address (a function, a closure, a bare `object()`)
is `{"$": "opaque"}`: an answer holding one proves nothing alike or different about that part. At
most `MAX_NODES` nodes and `MAX_DEPTH` levels are written; what is past them is a `{"$": "more"}`
marker (with the count left out when it is known), and a container met again on its own path is
`{"$": "cycle"}`.

Only what `decodable` accepts is turned back into a value (`decode`), for the calls replayed on both
versions: builtins, never an object. The one exception is the instance a method is called on
(`receiver_decodable`): its fields are builtins, and the version's own class is given them
(`receiver`).
"""

from __future__ import annotations

import hashlib
import json
import re
import types
from collections.abc import Iterator
from typing import Any

MAX_NODES = 2000
MAX_DEPTH = 20
MAX_STR = 400  # characters of a string kept whole; past it: length, prefix and digest
MAX_INT_BITS = 256
MAX_REPR = 200
MAX_ITEMS_PULLED = 10_000  # items an iterator is asked for, past the node budget, before it stops
OPAQUE = {"$": "opaque"}
_CODE = (types.FunctionType, types.MethodType, types.BuiltinFunctionType, types.CodeType)
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]{4,}")  # a default repr: where it lives


class _Budget:
    __slots__ = ("left",)

    def __init__(self) -> None:
        self.left = MAX_NODES


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _type_name(value: object) -> str:
    kind = type(value)
    module = getattr(kind, "__module__", "") or ""
    name = getattr(kind, "__qualname__", "") or "?"
    name = name if isinstance(name, str) else "?"
    module = module if isinstance(module, str) else ""
    return (name if module in ("builtins", "") else f"{module}.{name}")[:MAX_REPR]


def encode(value: object) -> Any:
    """`value` as bounded, data-only JSON (see module)."""
    return _encode(value, _Budget(), set(), 0)


def _encode(value: object, budget: _Budget, path: set[int], depth: int) -> Any:
    budget.left -= 1
    kind = type(value)
    if value is None or kind is bool:
        return value
    if kind is int:
        number: int = value  # type: ignore[assignment]
        if number.bit_length() <= MAX_INT_BITS:
            return number
        raw = number.to_bytes((number.bit_length() + 8) // 8, "big", signed=True)
        return {"$": "bigint", "bits": number.bit_length(), "sign": -1 if number < 0 else 1,
                "h": _digest(raw)}  # fmt: skip
    if kind is float:
        return {"$": "float", "r": repr(value)}
    if kind is str:
        text: str = value  # type: ignore[assignment]
        if len(text) <= MAX_STR:
            return text
        return {"$": "longstr", "len": len(text), "head": text[:100],
                "h": _digest(text.encode("utf-8", "surrogatepass"))}  # fmt: skip
    if kind is bytes:
        data: bytes = value  # type: ignore[assignment]
        if len(data) <= MAX_STR // 2:
            return {"$": "bytes", "hex": data.hex()}
        return {"$": "longbytes", "len": len(data), "head": data[:50].hex(), "h": _digest(data)}
    if kind is complex:
        return {"$": "complex", "r": repr(value)}
    if id(value) in path:
        return {"$": "cycle"}
    if depth >= MAX_DEPTH or budget.left <= 0:
        return {"$": "more", "type": _type_name(value)}
    path.add(id(value))
    try:
        return _container(value, kind, budget, path, depth)
    finally:
        path.discard(id(value))


def _items(values: Any, budget: _Budget, path: set[int], depth: int) -> list[Any]:
    out: list[Any] = []
    total = 0
    for item in values:
        total += 1
        if budget.left <= 0:
            continue  # counted, not written
        out.append(_encode(item, budget, path, depth + 1))
    if total > len(out):
        out.append({"$": "more", "n": total - len(out)})
    return out


def _container(value: Any, kind: type, budget: _Budget, path: set[int], depth: int) -> Any:
    if kind is list:
        return _items(value, budget, path, depth)
    if kind is tuple:
        return {"$": "tuple", "items": _items(value, budget, path, depth)}
    if kind is dict:
        pairs = _items(([k, v] for k, v in value.items()), budget, path, depth)
        pairs.sort(key=_order)  # a dict's value is its pairs, not the order they were put in
        return {"$": "dict", "items": pairs}
    if kind in (set, frozenset):
        items = _items(value, budget, path, depth)
        items.sort(key=_order)  # a set's iteration order is not its value
        return {"$": kind.__name__, "items": items}
    if isinstance(value, Iterator):
        return {"$": "iter", "items": _pulled(value, budget, path, depth)}
    return _object(value, budget, path, depth)


def _pulled(values: Iterator[Any], budget: _Budget, path: set[int], depth: int) -> list[Any]:
    """What an iterator yields, in order, then how it ended: the exception that ended it (its type
    and args) or, past the node budget, a `more` marker (an endless iterator ends there)."""
    out: list[Any] = []
    pulled = 0
    while True:
        if budget.left <= 0 or pulled >= MAX_ITEMS_PULLED:
            out.append({"$": "more"})
            return out
        try:
            item = next(values)
        except StopIteration:
            return out
        except Exception as exc:  # noqa: BLE001 - how head code's iterator ended is its answer
            out.append({"$": "raised", "type": _type_name(exc)})
            return out
        pulled += 1
        out.append(_encode(item, budget, path, depth + 1))


def _order(item: Any) -> str:
    """Where an encoded item sorts (a `more` marker last)."""
    if isinstance(item, dict) and item.get("$") == "more":
        return "\uffff"
    return json.dumps(item, sort_keys=True)


def _object(value: Any, budget: _Budget, path: set[int], depth: int) -> Any:
    """Any other object: its type's name and its fields, or its repr (addresses blanked)."""
    name = _type_name(value)
    if isinstance(value, _CODE):
        return dict(OPAQUE)  # what a function does is not in its fields nor its repr
    if isinstance(value, BaseException):
        return {"$": "obj", "type": name, "args": _items(value.args, budget, path, depth)}
    fields = getattr(value, "__dict__", None)
    pairs = _slot_values(value)
    if type(fields) is dict:
        pairs += [[k, v] for k, v in fields.items()]
    if pairs:
        pairs.sort(key=lambda kv: str(kv[0]))
        return {"$": "obj", "type": name, "fields": _items(pairs, budget, path, depth)}
    builtins: tuple[Any, ...] = (list, tuple, dict, set, frozenset, str, bytes, int, float)
    for builtin in builtins:
        if isinstance(value, builtin):  # a subclass: its builtin value under its own type name
            plain: Any = builtin(value)
            return {"$": "obj", "type": name, "value": _encode(plain, budget, path, depth + 1)}
    shown: Any = repr(value)
    text = shown if type(shown) is str else "?"
    if _ADDRESS.search(text) or text == "?":
        if type(fields) is dict:  # an instance with no state yet: its type is all there is
            return {"$": "obj", "type": name, "fields": []}
        return dict(OPAQUE)  # it shows where it lives, not what it is
    return {"$": "obj", "type": name, "repr": text[:MAX_REPR]}


def _slot_values(value: Any) -> list[list[Any]]:
    """The `__slots__` fields `value` has set, by name (an object without `__dict__` keeps its
    state there)."""
    out: list[list[Any]] = []
    seen: set[str] = set()
    for klass in type(value).__mro__:
        slots = klass.__dict__.get("__slots__", ())
        for slot in (slots,) if isinstance(slots, str) else slots:
            if not isinstance(slot, str) or slot in seen or slot in ("__dict__", "__weakref__"):
                continue
            seen.add(slot)
            try:
                out.append([slot, object.__getattribute__(value, slot)])
            except AttributeError:
                continue
    return out


# --- back to values (inside the sandbox, for replayed calls) ----------------------------------------

_DECODABLE_TAGS = frozenset({"float", "tuple", "dict", "set", "frozenset", "bytes", "complex"})


def decodable(data: Any, depth: int = 0) -> bool:
    """Whether `data` is an encoding `decode` turns back into the same value (builtins only)."""
    if depth > MAX_DEPTH:
        return False
    if data is None or isinstance(data, (bool, int, str)):
        return True
    if isinstance(data, list):
        return all(decodable(item, depth + 1) for item in data)
    tag = data.get("$") if isinstance(data, dict) else None
    if not isinstance(tag, str) or tag not in _DECODABLE_TAGS:
        return False
    if tag in ("float", "complex", "bytes"):
        text = data.get("hex" if tag == "bytes" else "r")
        if not isinstance(text, str) or len(text) > MAX_STR * 2:
            return False
        try:  # what a hostile process wrote is checked here, not where it is used
            parse: Any = {"float": float, "complex": complex, "bytes": bytes.fromhex}[tag]
            parse(text)
        except ValueError:
            return False
        return True
    items = data.get("items")
    if not isinstance(items, list):
        return False
    if tag == "dict":
        return all(isinstance(p, list) and len(p) == 2 and decodable(p, depth + 1) for p in items)
    return all(decodable(item, depth + 1) for item in items)


def receiver_decodable(data: Any) -> bool:
    """Whether `data` is an object `receiver` can rebuild: a type name and fields that are all
    `decodable` (the instance a method is called on, carried as its state)."""
    if not isinstance(data, dict) or set(data) != {"$", "type", "fields"} or data["$"] != "obj":
        return False
    fields = data["fields"]
    return (
        isinstance(data["type"], str)
        and isinstance(fields, list)
        and all(
            isinstance(f, list) and len(f) == 2 and isinstance(f[0], str) and decodable(f[1], 1)
            for f in fields
        )
    )


def call_decodable(args: list[Any], kwargs: list[list[Any]]) -> bool:
    """Whether a call's arguments can be carried to either version: every one `decodable`, the
    first one (a method's instance) `receiver_decodable` too."""
    first = not args or decodable(args[0]) or receiver_decodable(args[0])
    return first and decodable(args[1:]) and all(decodable(v) for _, v in kwargs)


def receiver(data: Any, owner: type) -> Any:
    """An instance of `owner` holding the fields of `data` (`receiver_decodable`), made without
    running its `__init__`: the state a method was called on, rebuilt in either version."""
    instance: Any = owner.__new__(owner)  # type: ignore[call-overload]
    for name, value in data["fields"]:
        object.__setattr__(instance, name, decode(value))
    return instance


def decode(data: Any) -> Any:
    """The value an encoding `decodable` accepted stands for."""
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return [decode(item) for item in data]
    tag = data["$"]
    if tag == "float":
        return float(data["r"])
    if tag == "complex":
        return complex(data["r"])
    if tag == "bytes":
        return bytes.fromhex(data["hex"])
    items = [decode(item) for item in data["items"]]
    if tag == "tuple":
        return tuple(items)
    if tag == "dict":
        return {_hashable(k): v for k, v in items}
    return set(map(_hashable, items)) if tag == "set" else frozenset(map(_hashable, items))


def _hashable(value: Any) -> Any:
    """A decoded list used as a key (a tuple inside a set or a dict key) back as a tuple."""
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value
