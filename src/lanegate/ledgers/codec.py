"""Frozen dataclasses <-> JSON values, and the JSON Schema derived from the same dataclasses.

One source of truth: the models in `lanegate.ledgers.models` define both the Python shape and the
published schema. Field metadata adds constraints: `minimum`, `maximum`, `pattern`, `const`, `json`
(the JSON key when it is not a Python name, e.g. `class`) and `description`.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from datetime import datetime
from enum import Enum
from typing import Any, TypeVar

T = TypeVar("T")

INT_MAX = 2**63 - 1
ZONED_TIMESTAMP = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,6})?(Z|[+-][0-9]{2}:[0-9]{2})$"


def json_name(f: dataclasses.Field[Any]) -> str:
    """The JSON key of a dataclass field."""
    return str(f.metadata.get("json", f.name))


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    # get_type_hints re-evaluates every annotation string: cached, loading a ledger is ~3x faster
    return typing.get_type_hints(cls)


def _is_optional(tp: Any) -> tuple[bool, Any]:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(tp)) == 2:
            return True, args[0]
    return False, tp


def schema_for_type(
    tp: Any, meta: typing.Mapping[str, Any], defs: dict[str, Any]
) -> dict[str, Any]:
    """The JSON Schema of one annotated type (with field metadata applied)."""
    optional, inner = _is_optional(tp)
    if optional:
        return {"anyOf": [schema_for_type(inner, meta, defs), {"type": "null"}]}
    origin = typing.get_origin(tp)
    out: dict[str, Any]
    if tp is str:
        out = {"type": "string"}
        for key in ("pattern", "const", "maxLength", "minLength"):
            if key in meta:
                out[key] = meta[key]
        if "enum" in meta:
            out["enum"] = list(meta["enum"])
    elif tp is bool:
        out = {"type": "boolean"}
        if "const" in meta:
            out["const"] = meta["const"]
    elif tp is int:
        out = {
            "type": "integer",
            "minimum": meta.get("minimum", 0),
            "maximum": meta.get("maximum", INT_MAX),
        }
        if "const" in meta:
            out["const"] = meta["const"]
    elif tp is float:
        out = {"type": "number", "minimum": meta.get("minimum", 0)}
        if "maximum" in meta:
            out["maximum"] = meta["maximum"]
    elif tp is datetime:
        out = {"type": "string", "pattern": ZONED_TIMESTAMP}
    elif isinstance(tp, type) and issubclass(tp, Enum):
        out = {"type": "string", "enum": [m.value for m in tp]}
    elif origin is tuple:
        (item,) = [a for a in typing.get_args(tp) if a is not Ellipsis]
        out = {"type": "array", "items": schema_for_type(item, meta.get("items", {}), defs)}
        if "maxItems" in meta:
            out["maxItems"] = meta["maxItems"]
        if "minItems" in meta:
            out["minItems"] = meta["minItems"]
    elif origin is dict:
        _, value_tp = typing.get_args(tp)
        out = {"type": "object", "additionalProperties": schema_for_type(value_tp, {}, defs)}
    elif origin in (typing.Union, types.UnionType):
        out = {"anyOf": [schema_for_type(a, {}, defs) for a in typing.get_args(tp)]}
    elif tp is type(None):
        out = {"type": "null"}
    elif isinstance(tp, type) and dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # reserve against recursion
            defs[name] = object_schema(tp, defs)
        out = {"$ref": f"#/$defs/{name}"}
    else:
        raise TypeError(f"no schema for {tp!r}")
    if "description" in meta and "$ref" not in out:
        out["description"] = meta["description"]
    return out


def object_schema(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema object of one dataclass: every field required, nothing else allowed."""
    hints = _hints(cls)
    props: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        props[json_name(f)] = schema_for_type(hints[f.name], f.metadata, defs)
    out: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }
    if cls.__doc__:
        out["description"] = " ".join(cls.__doc__.split())
    return out


def document_schema(cls: type, schema_id: str, title: str) -> dict[str, Any]:
    """A complete draft 2020-12 schema document for a top-level model."""
    defs: dict[str, Any] = {}
    body = object_schema(cls, defs)
    doc: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": schema_id,
        "title": title,
    }
    doc.update(body)
    if defs:
        doc["$defs"] = dict(sorted(defs.items()))
    return doc


def from_json(cls: type[T], data: Any) -> T:
    """Build a model from a JSON value that already passed the model's schema."""
    return typing.cast(T, _build(cls, data))


def _build(tp: Any, data: Any) -> Any:
    optional, inner = _is_optional(tp)
    if optional:
        return None if data is None else _build(inner, data)
    origin = typing.get_origin(tp)
    if tp is datetime:
        return datetime.fromisoformat(data.replace("Z", "+00:00"))
    if tp is float:
        return float(data)
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(data)
    if origin is tuple:
        (item,) = [a for a in typing.get_args(tp) if a is not Ellipsis]
        return tuple(_build(item, v) for v in data)
    if origin is dict:
        _, value_tp = typing.get_args(tp)
        return {k: _build(value_tp, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {f.name: _build(hints[f.name], data[json_name(f)]) for f in dataclasses.fields(tp)}
        return tp(**kwargs)
    return data


def to_json(value: Any) -> Any:
    """The JSON value of a model (tuples -> lists, enums -> values, datetimes -> ISO 8601)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {json_name(f): to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value
