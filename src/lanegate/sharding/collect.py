"""The score job's side of sharding: read a folder's shard ledgers, merge them per lane against the
plan the scorer derived itself, and hand the scorer one ledger slot per lane plus the problems."""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from pathlib import Path

from lanegate.diff import DiffSummary
from lanegate.errors import ShardError
from lanegate.lanes.property.canary import plan_canaries
from lanegate.ledgers.load import dump_bytes
from lanegate.ledgers.models import PropertyLedger
from lanegate.model import Lane
from lanegate.policy import Policy
from lanegate.scoring.evidence import (
    LEDGER_FILES,
    FailureKind,
    LedgerSlot,
    LoadedLedger,
    LoadFailure,
    ShardProblem,
)
from lanegate.sharding.ledger_file import ShardLedger, shard_files, shard_from_file
from lanegate.sharding.merge import merge_lane
from lanegate.sharding.plan import SHARDED_LANES, ShardPlan, derive_like, load_plan

_LANES = {"property": Lane.PROPERTY, "flake": Lane.FLAKE}


@dataclass(frozen=True, slots=True)
class ShardedEvidence:
    """The merged slot of each sharded lane, and every reason a lane's shards did not merge."""

    slots: dict[Lane, LedgerSlot]
    problems: tuple[ShardProblem, ...]
    # every property shard's canaries, each re-derived with that shard's own canary_seed (None: none
    # derived, because the plan was refused)
    planned_canaries: tuple[str, ...] | None = None


# per sharded lane: the shard ledgers read from a folder, and the files that could not be read
ReadShards = dict[str, tuple[list[ShardLedger], list[ShardProblem]]]


def read_shards(folder: Path) -> ReadShards:
    """Every shard ledger of both sharded lanes in `folder`, each file read once."""
    return {name: _read(folder, name) for name in SHARDED_LANES}


def _read(folder: Path, lane: str) -> tuple[list[ShardLedger], list[ShardProblem]]:
    loaded, problems = [], []
    for path in shard_files(folder, lane):
        try:
            loaded.append(shard_from_file(path))
        except ShardError as exc:
            problems.append(
                ShardProblem("shard-invalid", _LANES[lane], exc.diagnostic(), str(path))
            )
    return loaded, problems


def merged_from_dir(
    folder: Path, plan: ShardPlan, run_attempt: int, read: ReadShards | None = None
) -> ShardedEvidence:
    """Merge the shard ledgers in `folder` (`read`: as `read_shards` gave them) for both sharded
    lanes. A lane ledger written unsharded next to a plan (`property.json`) is an extra shard: the
    plan says how the lane ran."""
    slots: dict[Lane, LedgerSlot] = {}
    problems: list[ShardProblem] = []
    shards_read = read_shards(folder) if read is None else read
    for name in SHARDED_LANES:
        lane = _LANES[name]
        shards, found_problems = shards_read[name]
        lane_problems = list(found_problems)
        plain = folder / LEDGER_FILES[lane]
        if plain.exists() or plain.is_symlink():
            lane_problems.append(
                ShardProblem(
                    "shard-extra",
                    lane,
                    f"an unsharded {plain.name} next to a shard plan",
                    str(plain),
                )
            )
        result = merge_lane(plan.lane(name), shards, run_attempt)
        lane_problems.extend(result.problems)
        where = f"{LEDGER_FILES[lane]} (merged from {plan.lane(name).shards} shard(s))"
        if result.ledger is not None and not lane_problems:
            digest = "sha256:" + hashlib.sha256(dump_bytes(result.ledger)).hexdigest()
            slots[lane] = LoadedLedger(result.ledger, digest, where)
        else:
            first = lane_problems[0].message if lane_problems else "no shard"
            slots[lane] = LoadFailure(
                FailureKind.MISSING, f"the {name} shards did not merge: {first}", where
            )
        problems.extend(lane_problems)
    return ShardedEvidence(slots, tuple(problems))


def unmergeable(rule_id: str, plan_error: str, where: str) -> ShardedEvidence:
    """Both sharded lanes failed closed because the plan file itself was refused."""
    slots: dict[Lane, LedgerSlot] = {}
    problems = []
    for name in SHARDED_LANES:
        lane = _LANES[name]
        slots[lane] = LoadFailure(FailureKind.MISSING, f"shard plan refused: {plan_error}", where)
        problems.append(ShardProblem(rule_id, lane, plan_error, where))
    return ShardedEvidence(slots, tuple(problems))


def sharded_evidence(
    repo: Path, summary: DiffSummary, policy: Policy, plan_file: Path, folder: Path, attempt: int
) -> ShardedEvidence:
    """The score job's sharded lanes: the plan file checked against the plan derived from the diff
    (refused: both lanes fail closed), then `folder`'s shard ledgers merged against the derived one."""
    try:
        given = load_plan(plan_file)
    except ShardError as exc:
        return unmergeable("shard-invalid", exc.diagnostic(), str(plan_file))
    try:
        derived = derive_like(repo, summary, policy, given, str(plan_file))
    except ShardError as exc:
        return unmergeable("shard-plan-mismatch", exc.diagnostic(), str(plan_file))
    read = read_shards(folder)
    merged = merged_from_dir(folder, derived, attempt, read)
    canaries = _planned_canaries(repo, summary, policy, derived, read["property"][0])
    return dataclasses.replace(merged, planned_canaries=canaries)


def _planned_canaries(
    repo: Path, summary: DiffSummary, policy: Policy, plan: ShardPlan, shards: list[ShardLedger]
) -> tuple[str, ...]:
    """The canaries each property shard must have planted: drawn with the seed its ledger records
    and as many real mutants as the plan gives its slice (a ledger whose canaries differ fails
    `property-mutants-rederived`, as an unsharded one does)."""
    lane = plan.lane("property")
    out: list[str] = []
    for shard in shards:
        if not isinstance(shard.ledger, PropertyLedger) or shard.spec.count != lane.shards:
            continue  # refused by the merge already
        real = len(lane.slice(shard.spec))
        drawn = plan_canaries(repo, summary, policy, shard.ledger.canary_seed, real)
        out.extend(spec.id for spec in drawn)
    return tuple(out)
