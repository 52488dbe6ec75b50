"""Bytes -> typed ledger, strictly: parsing and shape only, no policy.

Fails closed with a `LedgerError` naming the file and the field on: a missing or unreadable file, a file
over the size cap, text that is not UTF-8, invalid JSON, duplicate keys, NaN or Infinity, nesting too
deep, an unknown `schema_version`, a missing, extra or wrongly typed field (a bool is never an int), a
negative count, a timestamp without a zone.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

import jsonschema

from lanegate.errors import LedgerError
from lanegate.ledgers import codec, schemas

T = TypeVar("T")

MAX_LEDGER_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 64


@dataclass(frozen=True, slots=True)
class Loaded(Generic[T]):
    """A parsed document and the sha256 of the exact bytes it came from."""

    value: T
    digest: str


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _depth(value: Any, limit: int) -> bool:
    """True when `value` nests no deeper than `limit` (iterative: hostile input cannot recurse us)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if level > limit:
            return False
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return True


def parse_json_bytes(data: bytes, where: str) -> Any:
    """Strict JSON: UTF-8, no duplicate keys, no NaN/Infinity, bounded size and depth."""
    if len(data) > MAX_LEDGER_BYTES:
        raise LedgerError(f"{where}: {len(data)} bytes, over the {MAX_LEDGER_BYTES}-byte cap")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LedgerError(f"{where}: not UTF-8 text (byte {exc.start})") from None
    if text.startswith("\ufeff"):
        raise LedgerError(f"{where}: starts with a byte-order mark; write plain UTF-8")
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except RecursionError:
        raise LedgerError(f"{where}: JSON nests too deep") from None
    except json.JSONDecodeError as exc:
        raise LedgerError(
            f"{where}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except ValueError as exc:
        raise LedgerError(f"{where}: invalid JSON: {exc}") from None
    if not _depth(value, MAX_DEPTH):
        raise LedgerError(f"{where}: JSON nests deeper than {MAX_DEPTH} levels")
    return value


def _is_strict_integer(checker: Any, instance: Any) -> bool:
    # JSON Schema calls 5.0 an integer; a ledger count written as a float is a wrong type here.
    return isinstance(instance, int) and not isinstance(instance, bool)


@cache
def _validator(name: str) -> Any:
    schema = schemas.shipped(name)
    base = jsonschema.validators.validator_for(schema)
    checker = base.TYPE_CHECKER.redefine("integer", _is_strict_integer)
    return jsonschema.validators.extend(base, type_checker=checker)(schema)


def _field_path(error: Any) -> str:
    parts = ""
    for item in error.absolute_path:
        parts += f"[{item}]" if isinstance(item, int) else (f".{item}" if parts else str(item))
    return parts or "(top level)"


def _describe(error: Any) -> str:
    if error.validator == "required":
        missing = [k for k in error.validator_value if k not in error.instance]
        path = _field_path(error)
        name = missing[0] if missing else "?"
        return f"{name if path == '(top level)' else path + '.' + name}: required field is missing"
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        path = _field_path(error)
        name = extra[0] if extra else "?"
        return f"{name if path == '(top level)' else path + '.' + name}: unknown field"
    if error.validator == "type":
        got = type(error.instance).__name__ if error.instance is not None else "null"
        return f"{_field_path(error)}: expected {error.validator_value}, got {got}"
    if error.validator in ("anyOf", "oneOf"):
        got = type(error.instance).__name__ if error.instance is not None else "null"
        return f"{_field_path(error)}: value of type {got} does not fit the schema"
    if error.validator == "pattern":
        if error.validator_value == codec.ZONED_TIMESTAMP:
            return f"{_field_path(error)}: expected an ISO 8601 timestamp with a zone (e.g. ...Z or +02:00)"
        shown = repr(error.instance)[:80]
        return f"{_field_path(error)}: {shown} does not match the pattern {error.validator_value}"
    message = error.message if len(error.message) <= 200 else error.message[:200] + "..."
    return f"{_field_path(error)}: {message}"


def validate_json(value: Any, name: str, where: str) -> None:
    """Check a parsed document against the shipped schema `name`; raise on the first problem."""
    if not isinstance(value, dict):
        raise LedgerError(f"{where}: expected a JSON object at the top level")
    if "schema_version" in value:
        version = value["schema_version"]
        if isinstance(version, bool) or not isinstance(version, int):
            raise LedgerError(f"{where}: schema_version: expected integer")
        wanted = schemas.version_of(name)
        if version != wanted:
            raise LedgerError(
                f"{where}: schema_version: {version} is not supported (this lanegate reads {wanted})"
            )
    errors = sorted(
        _validator(name).iter_errors(value),
        key=lambda e: (len(e.absolute_path), str(e.absolute_path)),
    )
    if errors:
        raise LedgerError(f"{where}: {_describe(errors[0])}")


def load_document(cls: type[T], name: str, data: bytes, where: str) -> Loaded[T]:
    """Parse, validate and build a model from raw bytes."""
    value = parse_json_bytes(data, where)
    validate_json(value, name, where)
    try:
        built = codec.from_json(cls, value)
    except (ValueError, TypeError, OverflowError) as exc:
        raise LedgerError(f"{where}: {exc}") from None
    return Loaded(built, "sha256:" + hashlib.sha256(data).hexdigest())


def read_bytes(path: Path) -> bytes:
    """Read a ledger file with the size cap applied before reading it all."""
    try:
        if path.is_symlink():
            raise LedgerError(f"{path}: is a symbolic link; ledgers must be regular files")
        size = path.stat().st_size
        if size > MAX_LEDGER_BYTES:
            raise LedgerError(f"{path}: {size} bytes, over the {MAX_LEDGER_BYTES}-byte cap")
        with path.open("rb") as handle:
            return handle.read(MAX_LEDGER_BYTES + 1)
    except FileNotFoundError:
        raise LedgerError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise LedgerError(f"{path}: is a directory, not a ledger file") from None
    except OSError as exc:
        raise LedgerError(f"{path}: cannot read: {exc.strerror}") from None


def load_file(cls: type[T], name: str, path: Path) -> Loaded[T]:
    """Read and load one document file of kind `name`."""
    return load_document(cls, name, read_bytes(path), str(path))


def dump_bytes(model: Any) -> bytes:
    """Stable bytes of a model: sorted keys, two-space indent, trailing newline."""
    text = json.dumps(
        codec.to_json(model), indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False
    )
    return (text + "\n").encode("utf-8")


def write_document(path: Path, model: Any, name: str) -> str:
    """Validate `model` against schema `name`, then write it atomically; return its digest."""
    data = dump_bytes(model)
    validate_json(json.loads(data), name, str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return "sha256:" + hashlib.sha256(data).hexdigest()
