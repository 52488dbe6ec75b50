"""The shard plan: the property lane's mutants and the flake lane's test files, derived once from the
base/head diff by lanegate's own code (no head code runs), with a digest per lane, as a JSON file.

The plan is a commitment, not an input the scorer trusts: every shard job and the score job derive it
again from the diff and refuse a plan file whose digest differs (`verify_plan`). The one thing it
carries that the diff does not decide is the mutant draw (`plant.policy_draw`): a secret the plan
job picks (unless the policy fixes one), so that every shard plants the same mutants and none could
be predicted when the diff was written.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanegate import git
from lanegate.diff import DiffSummary
from lanegate.errors import LedgerError, ShardError
from lanegate.lanes.collection import changed_test_files
from lanegate.lanes.property.plant import MAX_DRAW, plan_from_summary, policy_draw
from lanegate.ledgers.load import parse_json_bytes, read_bytes
from lanegate.policy import Policy
from lanegate.sharding.slices import MAX_SHARDS, Item, ShardRun, ShardSpec, balanced_slices

PLAN_KIND = "lanegate-shard-plan"
PLAN_VERSION = 2
PLAN_NAME = "plan.json"
SHARDED_LANES = ("property", "flake")
# a mutant's cost is unknown before the baseline run (its covering tests): every mutant counts one
MUTANT_COST = 1.0
_MAX_ITEMS = 100_000


@dataclass(frozen=True, slots=True)
class LanePlan:
    """One lane's planned items (mutant ids, or test file paths) split into `shards` slices."""

    lane: str
    shards: int
    items: tuple[Item, ...]
    digest: str

    def slice(self, spec: ShardSpec) -> tuple[str, ...]:
        """The item ids shard `spec` runs (its slice of this plan)."""
        if spec.count != self.shards:
            raise ShardError(
                f"--shard {spec}: the {self.lane} plan has {self.shards} shard(s), not {spec.count}"
            )
        return self.slices()[spec.index - 1]

    def slices(self) -> tuple[tuple[str, ...], ...]:
        """Every shard's slice, shard 1 first."""
        return balanced_slices(self.items, self.shards)


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """The plan of one diff: both sharded lanes, for one base/head pair."""

    base_commit: str
    head_commit: str
    diff_digest: str
    property: LanePlan
    flake: LanePlan
    mutant_draw: int

    def lane(self, name: str) -> LanePlan:
        """The plan of lane `name` (property or flake)."""
        if name == "property":
            return self.property
        if name == "flake":
            return self.flake
        raise ShardError(f"lane {name!r} is not sharded (only {', '.join(SHARDED_LANES)})")


def lane_digest(
    lane: str,
    shards: int,
    items: tuple[Item, ...],
    base: str,
    head: str,
    diff_digest: str,
    mutant_draw: int,
) -> str:
    """sha256 over the canonical JSON of everything that decides a lane's slices."""
    body = {
        "base_commit": base,
        "diff_digest": diff_digest,
        "head_commit": head,
        "items": [[i.id, i.cost] for i in items],
        "lane": lane,
        "mutant_draw": mutant_draw,
        "shards": shards,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _lane_plan(
    lane: str, shards: int, items: tuple[Item, ...], summary: DiffSummary, draw: int
) -> LanePlan:
    ShardSpec(1, shards)  # validates the count
    digest = lane_digest(
        lane, shards, items, summary.base_commit, summary.head_commit, summary.digest, draw
    )
    return LanePlan(lane, shards, items, digest)


def _test_file_cost(repo: Path, summary: DiffSummary, path: str) -> float:
    data = git.show_file(repo, summary.head_commit, path) or b""
    return float(max(1, data.count(b"\n") + 1))


def build_plan(
    repo: Path,
    summary: DiffSummary,
    policy: Policy,
    *,
    property_shards: int,
    flake_shards: int,
    draw: int,
) -> ShardPlan:
    """The plan of `summary`: the mutants draw `draw` plants (each of cost 1) and the test files the
    flake lane replays (cost: their line count at head), read from git, never by running head code."""
    planted = plan_from_summary(repo, summary, policy, draw=draw)
    mutants = tuple(Item(spec.id, MUTANT_COST) for spec in planted)
    files = tuple(
        Item(changed.path, _test_file_cost(repo, summary, changed.path))
        for changed in changed_test_files(repo, summary)
    )
    return ShardPlan(
        base_commit=summary.base_commit,
        head_commit=summary.head_commit,
        diff_digest=summary.digest,
        property=_lane_plan("property", property_shards, mutants, summary, draw),
        flake=_lane_plan("flake", flake_shards, files, summary, draw),
        mutant_draw=draw,
    )


def plan_bytes(plan: ShardPlan) -> bytes:
    """The plan file's bytes (sorted keys, one trailing newline)."""
    doc = {
        "kind": PLAN_KIND,
        "schema_version": PLAN_VERSION,
        "base_commit": plan.base_commit,
        "head_commit": plan.head_commit,
        "diff_digest": plan.diff_digest,
        "mutant_draw": plan.mutant_draw,
        "lanes": {
            lane.lane: {
                "shards": lane.shards,
                "digest": lane.digest,
                "items": [{"id": i.id, "cost": i.cost} for i in lane.items],
            }
            for lane in (plan.property, plan.flake)
        },
    }
    return (json.dumps(doc, indent=1, sort_keys=True, allow_nan=False) + "\n").encode("utf-8")


def write_plan(path: Path, plan: ShardPlan) -> None:
    """Write the plan file (its directory is created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(plan_bytes(plan))


def _field(doc: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = doc.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise ShardError(f"{where}: field {key!r} is missing or not a {kind.__name__}")
    return value


def _exact_keys(doc: dict[str, Any], keys: set[str], where: str) -> None:
    if set(doc) != keys:
        odd = sorted(set(doc) ^ keys)
        raise ShardError(f"{where}: unexpected or missing field(s) {', '.join(odd)}")


def _parse_lane(name: str, raw: Any, top: dict[str, Any], where: str) -> LanePlan:
    at = f"{where}: lanes.{name}"
    if not isinstance(raw, dict):
        raise ShardError(f"{at}: not an object")
    _exact_keys(raw, {"shards", "digest", "items"}, at)
    shards = _field(raw, "shards", int, at)
    if not 1 <= shards <= MAX_SHARDS:
        raise ShardError(f"{at}: field 'shards' is {shards}, not between 1 and {MAX_SHARDS}")
    listed = _field(raw, "items", list, at)
    if len(listed) > _MAX_ITEMS:
        raise ShardError(f"{at}: field 'items' lists {len(listed)} items (cap {_MAX_ITEMS})")
    items = []
    for n, entry in enumerate(listed):
        if not isinstance(entry, dict) or set(entry) != {"id", "cost"}:
            raise ShardError(f"{at}: items[{n}] is not an object with id and cost")
        ident, cost = entry["id"], entry["cost"]
        if not isinstance(ident, str) or not ident or len(ident) > 4096:
            raise ShardError(f"{at}: items[{n}].id is not a non-empty string")
        if isinstance(cost, bool) or not isinstance(cost, int | float) or not math.isfinite(cost):
            raise ShardError(f"{at}: items[{n}].cost is not a finite number")
        if cost < 0:
            raise ShardError(f"{at}: items[{n}].cost is negative")
        items.append(Item(ident, float(cost)))
    if len({i.id for i in items}) != len(items):
        raise ShardError(f"{at}: field 'items' lists an id twice")
    digest = lane_digest(
        name,
        shards,
        tuple(items),
        top["base_commit"],
        top["head_commit"],
        top["diff_digest"],
        top["mutant_draw"],
    )
    if _field(raw, "digest", str, at) != digest:
        raise ShardError(f"{at}: field 'digest' does not match the plan's content")
    return LanePlan(name, shards, tuple(items), digest)


def plan_from_bytes(data: bytes, where: str) -> ShardPlan:
    """Parse a plan file strictly; any malformed field is a ShardError naming the file and field."""
    try:
        doc = parse_json_bytes(data, where)
    except LedgerError as exc:
        raise ShardError(exc.diagnostic()) from None
    if not isinstance(doc, dict):
        raise ShardError(f"{where}: not a JSON object")
    keys = {
        "kind",
        "schema_version",
        "base_commit",
        "head_commit",
        "diff_digest",
        "mutant_draw",
        "lanes",
    }
    _exact_keys(doc, keys, where)
    if doc.get("kind") != PLAN_KIND:
        raise ShardError(f"{where}: field 'kind' is not {PLAN_KIND!r}")
    if doc.get("schema_version") != PLAN_VERSION:
        raise ShardError(f"{where}: field 'schema_version' is not {PLAN_VERSION}")
    for key in ("base_commit", "head_commit", "diff_digest"):
        _field(doc, key, str, where)
    draw = _field(doc, "mutant_draw", int, where)
    if not 0 <= draw < MAX_DRAW:
        raise ShardError(f"{where}: field 'mutant_draw' is {draw}, not between 0 and 2**62 - 1")
    lanes = _field(doc, "lanes", dict, where)
    _exact_keys(lanes, set(SHARDED_LANES), f"{where}: lanes")
    return ShardPlan(
        base_commit=doc["base_commit"],
        head_commit=doc["head_commit"],
        diff_digest=doc["diff_digest"],
        property=_parse_lane("property", lanes["property"], doc, where),
        flake=_parse_lane("flake", lanes["flake"], doc, where),
        mutant_draw=draw,
    )


def load_plan(path: Path) -> ShardPlan:
    """The plan file at `path` (size-capped, strictly parsed)."""
    try:
        data = read_bytes(path)
    except LedgerError as exc:
        raise ShardError(exc.diagnostic()) from None
    return plan_from_bytes(data, str(path))


def verify_plan(given: ShardPlan, derived: ShardPlan, where: str) -> None:
    """Refuse a plan file that is not the plan lanegate derives from this diff (same shard counts)."""
    for lane in SHARDED_LANES:
        if given.lane(lane).digest != derived.lane(lane).digest:
            raise ShardError(
                f"{where}: the {lane} plan's digest {given.lane(lane).digest[:19]}... is not the "
                f"digest of the plan derived from {derived.base_commit[:12]}..."
                f"{derived.head_commit[:12]} ({derived.lane(lane).digest[:19]}...)",
                hint="make the plan with `lanegate plan` on the same base and head",
            )


def derive_like(
    repo: Path, summary: DiffSummary, policy: Policy, given: ShardPlan, where: str
) -> ShardPlan:
    """The plan of `summary` with `given`'s shard counts, after checking `given` is exactly it."""
    derived = build_plan(
        repo,
        summary,
        policy,
        property_shards=given.property.shards,
        flake_shards=given.flake.shards,
        draw=given.mutant_draw,
    )
    verify_plan(given, derived, where)
    return derived


def parse_count(text: str, option: str) -> int:
    """A shard count from the command line or a workflow input: an integer in 1..MAX_SHARDS."""
    stripped = text.strip()
    if not stripped.isdigit() or not 1 <= int(stripped) <= MAX_SHARDS:
        raise ShardError(f"{option} {text!r}: must be an integer between 1 and {MAX_SHARDS}")
    return int(stripped)


def shard_run(
    repo: Path,
    summary: DiffSummary,
    policy: Policy,
    lane: str,
    spec: ShardSpec,
    plan_file: Path | None,
) -> ShardRun:
    """What shard `spec` of `lane` runs: its slice of the plan lanegate derives from `summary`.

    With `plan_file` (the plan job's artifact) the derived plan must have its digests, else the
    shard refuses to run; without one, both lanes are planned with `spec.count` shards (a local
    reproduction of one shard)."""
    if plan_file is not None:
        given = load_plan(plan_file)
        if given.lane(lane).shards != spec.count:
            raise ShardError(
                f"--shard {spec}: {plan_file} plans the {lane} lane in "
                f"{given.lane(lane).shards} shard(s)"
            )
        derived = derive_like(repo, summary, policy, given, str(plan_file))
    else:
        derived = build_plan(
            repo,
            summary,
            policy,
            property_shards=spec.count,
            flake_shards=spec.count,
            draw=policy_draw(policy),
        )
    lane_plan = derived.lane(lane)
    return ShardRun(spec, lane_plan.digest, lane_plan.slice(spec), derived.mutant_draw)
