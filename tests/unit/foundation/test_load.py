"""Strict ledger loading: every malformed file fails closed with one line naming file and field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lanegate.errors import LedgerError
from lanegate.ledgers.load import (
    MAX_LEDGER_BYTES,
    dump_bytes,
    load_document,
    load_file,
    write_document,
)
from lanegate.ledgers.models import FlakeLedger, PropertyLedger
from tests.unit.scoring import samples


def _prop() -> dict[str, Any]:
    return json.loads(dump_bytes(samples.property_ledger()))


def _load(data: bytes) -> PropertyLedger:
    return load_document(PropertyLedger, "property", data, "property.json").value


def test_round_trip_and_digest() -> None:
    data = dump_bytes(samples.property_ledger())
    loaded = load_document(PropertyLedger, "property", data, "property.json")
    assert loaded.value == samples.property_ledger()
    assert loaded.digest.startswith("sha256:") and len(loaded.digest) == 71


def _with(path: tuple[Any, ...], value: Any) -> bytes:
    doc = _prop()
    target = doc
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return json.dumps(doc).encode()


def _without(key: str) -> bytes:
    doc = _prop()
    del doc[key]
    return json.dumps(doc).encode()


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"", "invalid JSON at line 1 column 1"),
        (b"[]", "expected a JSON object at the top level"),
        (b"\xef\xbb\xbf{}", "byte-order mark"),
        (b"\xff\xfe", "not UTF-8"),
        (b'{"a": 1, "a": 2}', "duplicate key 'a'"),
        (b'{"a": NaN}', "NaN is not allowed"),
        (b'{"a": Infinity}', "Infinity is not allowed"),
        (b"[" * 100 + b"]" * 100, "nests deeper than"),
        (_without("seed"), "seed: required field is missing"),
        (_with(("cases_run",), True), "cases_run: expected integer, got bool"),
        (_with(("cases_run",), 200.0), "cases_run: expected integer, got float"),
        (_with(("cases_run",), -1), "cases_run: -1 is less than the minimum of 0"),
        (_with(("cases_run",), 2**64), "is greater than the maximum"),
        (
            _with(("schema_version",), 3),
            "schema_version: 3 is not supported (this lanegate reads 2)",
        ),
        # a property ledger of the shape before revert mutants (version 1) is refused
        (
            _with(("schema_version",), 1),
            "schema_version: 1 is not supported (this lanegate reads 2)",
        ),
        (_with(("schema_version",), "1"), "schema_version: expected integer"),
        (
            _with(("created_utc",), "2026-11-29T21:50:00"),
            "created_utc: expected an ISO 8601 timestamp with a zone",
        ),
        (_with(("extra",), 1), "extra: unknown field"),
        (_with(("mutants", 0, "status"), "dead"), "mutants[0].status"),
        (_with(("mutants", 0, "line"), 0), "mutants[0].line"),
        (_with(("base_commit",), "abc"), "base_commit: 'abc' does not match the pattern"),
        (_with(("mutant_kill_ratio",), 1.5), "mutant_kill_ratio"),
        (_with(("writer",), "flake-runner"), "writer"),
        (_with(("suite_id",), "x" * 300), "suite_id"),
    ],
)
def test_malformed_documents_fail_with_one_line(data: bytes, needle: str) -> None:
    with pytest.raises(LedgerError) as info:
        _load(data)
    text = info.value.diagnostic()
    assert text.startswith("property.json: ")
    assert needle in text
    assert "\n" not in text


def test_files_missing_dir_symlink_and_oversized(tmp_path: Path) -> None:
    with pytest.raises(LedgerError, match="file not found"):
        load_file(PropertyLedger, "property", tmp_path / "property.json")
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(LedgerError, match="is a directory"):
        load_file(PropertyLedger, "property", tmp_path / "dir.json")
    real = tmp_path / "real.json"
    real.write_bytes(dump_bytes(samples.property_ledger()))
    (tmp_path / "link.json").symlink_to(real)
    with pytest.raises(LedgerError, match="symbolic link"):
        load_file(PropertyLedger, "property", tmp_path / "link.json")
    big = tmp_path / "big.json"
    with big.open("wb") as handle:
        handle.truncate(MAX_LEDGER_BYTES + 1)
    with pytest.raises(LedgerError, match="over the"):
        load_file(PropertyLedger, "property", big)


def test_write_document_validates_before_writing(tmp_path: Path) -> None:
    target = tmp_path / "flake.json"
    digest = write_document(target, samples.flake_ledger(), "flake")
    assert load_file(FlakeLedger, "flake", target).digest == digest
    bad = samples.replace(samples.flake_ledger(), min_replays=1)
    with pytest.raises(LedgerError, match="min_replays"):
        write_document(tmp_path / "bad.json", bad, "flake")
    assert not (tmp_path / "bad.json").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["flake.json"]
