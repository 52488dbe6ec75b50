"""Outside the sandbox: encoded calls and answers as short Python-like text for the report."""

from __future__ import annotations

import json
from typing import Any

MAX_TEXT = 200


def clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def value(data: Any, depth: int = 0) -> str:
    """An encoded value as Python would show it (objects as `Type(...)`)."""
    if depth > 8:
        return "..."
    if data is None or isinstance(data, bool):
        return repr(data)
    if isinstance(data, int):
        return str(data) if abs(data) < 10**40 else f"<int of {data.bit_length()} bits>"
    if isinstance(data, str):
        return repr(data[:MAX_TEXT])
    if isinstance(data, list):
        return "[" + ", ".join(value(v, depth + 1) for v in data) + "]"
    if not isinstance(data, dict):
        return "?"
    tag = data.get("$")
    found = data.get("items")
    items: list[Any] = found if isinstance(found, list) else []
    inner = [value(v, depth + 1) for v in items]
    shown: dict[str, str] = {
        "float": str(data.get("r")),
        "complex": str(data.get("r")),
        "bytes": _bytes(data.get("hex")),
        "tuple": "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")",
        "set": "{" + ", ".join(inner) + "}" if inner else "set()",
        "frozenset": "frozenset({" + ", ".join(inner) + "})",
        "dict": "{" + ", ".join(_pair(v, depth) for v in items) + "}",
        "cycle": "<cycle>",
        "more": f"...{data.get('n', '')}",
        "bigint": f"<int of {data.get('bits')} bits>",
        "longstr": f"<str of {data.get('len')} characters>",
        "longbytes": f"<bytes of {data.get('len')}>",
        "iter": "iter([" + ", ".join(inner) + "])",
        "raised": f"<raised {data.get('type')}>",
        "opaque": "<function or object>",
    }
    if tag == "obj":
        return _object(data, depth)
    return shown.get(str(tag), "?")


def _bytes(text: Any) -> str:
    """`b'...'` from a hex string (a malformed one, which only a hostile process writes: `b?`)."""
    try:
        return repr(bytes.fromhex(str(text)[:400]))
    except ValueError:
        return "b?"


def _pair(item: Any, depth: int) -> str:
    if isinstance(item, list) and len(item) == 2:
        return f"{value(item[0], depth + 1)}: {value(item[1], depth + 1)}"
    return value(item, depth + 1)


def _object(data: dict[str, Any], depth: int) -> str:
    name = str(data.get("type", "?"))
    if "repr" in data:
        return str(data["repr"])
    if "value" in data:
        return f"{name}({value(data['value'], depth + 1)})"
    fields = data.get("fields") if isinstance(data.get("fields"), list) else data.get("args")
    parts = []
    for item in fields if isinstance(fields, list) else []:
        if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str):
            parts.append(f"{item[0]}={value(item[1], depth + 1)}")
        else:
            parts.append(value(item, depth + 1))
    return f"{name}({', '.join(parts)})"


def call(name: str, data: dict[str, Any]) -> str:
    """`name(1, 'a', key=2)` from an encoded call."""
    args = [value(a) for a in data["args"]]
    args += [f"{k}={value(v)}" for k, v in data["kwargs"]]
    return f"{name}({', '.join(args)})"


def case(name: str, calls: list[dict[str, Any]]) -> str:
    """A case's calls, `; `-separated, bounded."""
    return clip("; ".join(call(name, c) for c in calls))


def answer(text: str) -> str:
    """One call's canonical answer (`{"ok": ...}`, `{"raises": ...}`, `{"bad": ...}`) as text."""
    data = json.loads(text)
    if "ok" in data:
        shown = value(data["ok"])
    elif "raises" in data:
        shown = f"raises {data['raises']}"
    else:
        shown = f"unencodable answer ({data.get('bad')})"
    changed = data.get("mutated")
    if isinstance(changed, dict) and "args" in changed and "kwargs" in changed:
        shown += ", leaving its arguments " + call("", changed)
    return shown


def outcome(calls: tuple[str, ...], error: str) -> str:
    """A case's answers on one version, bounded."""
    if error:
        return "timed out" if error == "timeout" else error
    return clip("; ".join(answer(t) for t in calls))
