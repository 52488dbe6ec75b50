"""A shard's ledger file: the lane's own ledger of one slice, wrapped with the shard and plan digest.

`<lane>-shard-<K>-of-<N>.json` = `{kind, schema_version, lane, shard: "K/N", plan_digest, ledger}`;
`ledger` is a complete property.json or flake.json (validated by that lane's schema) whose mutants
or tests are the slice's only. The merge (`lanegate.sharding.merge`) turns a plan's shards back into
one ledger per lane.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from lanegate.errors import LedgerError, ShardError
from lanegate.ledgers import codec
from lanegate.ledgers.load import parse_json_bytes, read_bytes, validate_json
from lanegate.ledgers.models import FLAKE_WRITER, PROPERTY_WRITER, FlakeLedger, PropertyLedger
from lanegate.sharding.slices import ShardSpec, parse_shard

SHARD_KIND = "lanegate-shard-ledger"
SHARD_VERSION = 1
FILE_PATTERN = re.compile(r"(property|flake)-shard-([0-9]{1,3})-of-([0-9]{1,3})\.json")
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
_WRITERS = {"property": PROPERTY_WRITER, "flake": FLAKE_WRITER}

ShardedLedger = PropertyLedger | FlakeLedger


@dataclass(frozen=True, slots=True)
class ShardLedger:
    """One shard's ledger as read: its lane, K/N, the plan digest it ran, the ledger, the file."""

    lane: str
    spec: ShardSpec
    plan_digest: str
    ledger: ShardedLedger
    path: str


def shard_file_name(lane: str, spec: ShardSpec) -> str:
    """`property-shard-2-of-3.json`."""
    return f"{lane}-shard-{spec.index}-of-{spec.count}.json"


def write_shard_ledger(
    out_dir: Path, lane: str, spec: ShardSpec, plan_digest: str, ledger: ShardedLedger
) -> Path:
    """Validate `ledger` against its lane's schema, wrap it, write it atomically into `out_dir`."""
    inner = codec.to_json(ledger)
    path = out_dir / shard_file_name(lane, spec)
    validate_json(inner, lane, str(path))
    doc = {
        "kind": SHARD_KIND,
        "schema_version": SHARD_VERSION,
        "lane": lane,
        "shard": str(spec),
        "plan_digest": plan_digest,
        "ledger": inner,
    }
    data = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"
    out_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=out_dir)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8"))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def shard_from_bytes(data: bytes, where: str) -> ShardLedger:
    """Parse one shard file strictly; a malformed field is a ShardError naming file and field."""
    try:
        doc = parse_json_bytes(data, where)
    except LedgerError as exc:
        raise ShardError(exc.diagnostic()) from None
    if not isinstance(doc, dict):
        raise ShardError(f"{where}: not a JSON object")
    keys = {"kind", "schema_version", "lane", "shard", "plan_digest", "ledger"}
    if set(doc) != keys:
        raise ShardError(
            f"{where}: unexpected or missing field(s) {', '.join(sorted(set(doc) ^ keys))}"
        )
    if doc["kind"] != SHARD_KIND or doc["schema_version"] != SHARD_VERSION:
        raise ShardError(f"{where}: field 'kind'/'schema_version' is not a {SHARD_KIND} v1")
    lane = doc["lane"]
    if lane not in _WRITERS:
        raise ShardError(f"{where}: field 'lane' is {str(lane)[:40]!r}, not property or flake")
    if not isinstance(doc["shard"], str):
        raise ShardError(f"{where}: field 'shard' is not a K/N string")
    spec = parse_shard(doc["shard"])
    digest = doc["plan_digest"]
    if not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
        raise ShardError(f"{where}: field 'plan_digest' is not a sha256 digest")
    inner = doc["ledger"]
    if isinstance(inner, dict) and inner.get("writer") != _WRITERS[lane]:
        raise ShardError(f"{where}: field 'ledger.writer' is not {_WRITERS[lane]!r}")
    try:
        validate_json(inner, lane, f"{where}: ledger")
    except LedgerError as exc:
        raise ShardError(exc.diagnostic()) from None
    try:
        ledger: ShardedLedger = (
            codec.from_json(PropertyLedger, inner)
            if lane == "property"
            else codec.from_json(FlakeLedger, inner)
        )
    except (ValueError, TypeError, OverflowError, KeyError) as exc:
        raise ShardError(f"{where}: ledger: {exc}") from None
    return ShardLedger(lane, spec, digest, ledger, where)


def shard_from_file(path: Path) -> ShardLedger:
    """The shard file at `path`; its name must be the one its content claims."""
    try:
        data = read_bytes(path)
    except LedgerError as exc:
        raise ShardError(exc.diagnostic()) from None
    shard = shard_from_bytes(data, str(path))
    if path.name != shard_file_name(shard.lane, shard.spec):
        raise ShardError(
            f"{path}: the file says it is {shard.lane} shard {shard.spec}; "
            f"its name should be {shard_file_name(shard.lane, shard.spec)}"
        )
    return shard


def shard_files(folder: Path, lane: str) -> list[Path]:
    """Every file of `folder` that is named like a shard ledger of `lane` (`<lane>-shard-*.json`)."""
    return sorted(p for p in folder.glob(f"{lane}-shard-*.json"))
