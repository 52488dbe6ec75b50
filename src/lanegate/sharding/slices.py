"""`K/N` shard specs and the cost-balanced partition of a plan's items into N disjoint slices."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from lanegate.errors import ShardError

MAX_SHARDS = 32
_SPEC = re.compile(r"([0-9]{1,3})/([0-9]{1,3})")


@dataclass(frozen=True, slots=True)
class ShardSpec:
    """Shard `index` (1-based) of `count`."""

    index: int
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ShardError(f"shard count {self.count}: must be between 1 and {MAX_SHARDS}")
        if not 1 <= self.index <= self.count:
            raise ShardError(f"shard {self.index}/{self.count}: K must be between 1 and N")

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str) -> ShardSpec:
    """`"2/3"` -> ShardSpec(2, 3); anything else (0/3, 4/3, a/b, 1/0, 1/33) is a ShardError."""
    found = _SPEC.fullmatch(text.strip())
    if found is None:
        raise ShardError(f"--shard {text!r}: expected K/N with 1 <= K <= N <= {MAX_SHARDS}")
    index, count = int(found.group(1)), int(found.group(2))
    if not 1 <= count <= MAX_SHARDS or not 1 <= index <= count:
        raise ShardError(f"--shard {text!r}: expected K/N with 1 <= K <= N <= {MAX_SHARDS}")
    return ShardSpec(index, count)


@dataclass(frozen=True, slots=True)
class Item:
    """One unit of planned work: a mutant id or a test file, and its estimated cost."""

    id: str
    cost: float


def balanced_slices(items: Sequence[Item], count: int) -> tuple[tuple[str, ...], ...]:
    """`items` split into `count` disjoint slices of near-equal total cost (longest first, each to
    the lightest slice; ties to the lowest index), each slice in plan order. Deterministic."""
    if not 1 <= count <= MAX_SHARDS:
        raise ShardError(f"shard count {count}: must be between 1 and {MAX_SHARDS}")
    order = {item.id: n for n, item in enumerate(items)}
    if len(order) != len(items):
        raise ShardError("a plan lists the same item twice")
    loads = [0.0] * count
    members: list[list[str]] = [[] for _ in range(count)]
    for item in sorted(items, key=lambda i: (-i.cost, order[i.id])):
        lightest = min(range(count), key=lambda k: (loads[k], k))
        loads[lightest] += item.cost
        members[lightest].append(item.id)
    return tuple(tuple(sorted(ids, key=order.__getitem__)) for ids in members)


@dataclass(frozen=True, slots=True)
class ShardRun:
    """What one shard execution of a lane is given: which shard, the digest of the lane plan it
    runs, its slice (mutant ids or test file paths), checked against a plan lanegate derived, and
    the plan's mutant draw (every property shard plants with the same one)."""

    spec: ShardSpec
    plan_digest: str
    items: tuple[str, ...]
    mutant_draw: int
