"""Reading the scorer's evidence: ledger and lint files -> loaded values or load failures (the only I/O)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from lanegate.errors import LedgerError
from lanegate.ledgers import codec
from lanegate.ledgers.load import parse_json_bytes, read_bytes, validate_json
from lanegate.ledgers.models import (
    LINT_WRITER,
    FixtureLedger,
    FlakeLedger,
    LintReport,
    PropertyLedger,
)
from lanegate.model import Lane
from lanegate.scoring.evidence import (
    LEDGER_FILES,
    WRITERS,
    FailureKind,
    LedgerSlot,
    LintSlot,
    LoadedLedger,
    LoadedLint,
    LoadFailure,
)

_MODELS: dict[Lane, type[Any]] = {
    Lane.PROPERTY: PropertyLedger,
    Lane.FIXTURE: FixtureLedger,
    Lane.FLAKE: FlakeLedger,
}


def _digest(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def _parse(data: bytes, schema: str, writer: str, where: str) -> tuple[Any, LoadFailure | None]:
    """Parse, check the writer on the raw JSON, then validate; a wrong writer wins over any shape error."""
    try:
        raw = parse_json_bytes(data, where)
    except LedgerError as exc:
        return None, LoadFailure(FailureKind.INVALID, exc.diagnostic(), where)
    if isinstance(raw, dict) and "writer" in raw and raw["writer"] != writer:
        shown = repr(raw["writer"])
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        return None, LoadFailure(
            FailureKind.WRITER, f"{where}: writer is {shown}, expected {writer!r}", where
        )
    try:
        validate_json(raw, schema, where)
    except LedgerError as exc:
        return None, LoadFailure(FailureKind.INVALID, exc.diagnostic(), where)
    return raw, None


def ledger_from_bytes(lane: Lane, data: bytes, where: str | None = None) -> LedgerSlot:
    """The slot of one lane's ledger from its raw bytes. Never raises for bad input."""
    where = where or LEDGER_FILES[lane]
    raw, failure = _parse(data, lane.value, WRITERS[lane], where)
    if failure is not None:
        return failure
    try:
        value = codec.from_json(_MODELS[lane], raw)
    except (ValueError, TypeError, OverflowError, KeyError) as exc:
        return LoadFailure(FailureKind.INVALID, f"{where}: {exc}", where)
    return LoadedLedger(value, _digest(data), where)


def ledger_from_file(lane: Lane, path: Path) -> LedgerSlot:
    """The slot of one lane's ledger file; a missing file is a MISSING failure."""
    if not path.exists() and not path.is_symlink():
        return LoadFailure(FailureKind.MISSING, f"{path}: file not found", str(path))
    try:
        data = read_bytes(path)
    except LedgerError as exc:
        return LoadFailure(FailureKind.INVALID, exc.diagnostic(), str(path))
    return ledger_from_bytes(lane, data, str(path))


def ledgers_from_dir(folder: Path) -> dict[Lane, LedgerSlot]:
    """property.json, fixture.json and flake.json of `folder`."""
    return {lane: ledger_from_file(lane, folder / name) for lane, name in LEDGER_FILES.items()}


def lint_from_bytes(data: bytes, where: str = "lint.json") -> LintSlot:
    """The lint report from raw bytes. Never raises for bad input."""
    raw, failure = _parse(data, "lint", LINT_WRITER, where)
    if failure is not None:
        return failure
    try:
        value = codec.from_json(LintReport, raw)
    except (ValueError, TypeError, OverflowError, KeyError) as exc:
        return LoadFailure(FailureKind.INVALID, f"{where}: {exc}", where)
    return LoadedLint(value, _digest(data), where)


def lint_from_file(path: Path) -> LintSlot:
    """The lint report file; any problem (missing included) is a failure, since it was asked for."""
    try:
        data = read_bytes(path)
    except LedgerError as exc:
        return LoadFailure(FailureKind.INVALID, exc.diagnostic(), str(path))
    return lint_from_bytes(data, str(path))
