"""K/N parsing and the cost-balanced partition into slices."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.errors import ShardError
from lanegate.sharding.slices import MAX_SHARDS, Item, ShardSpec, balanced_slices, parse_shard


@pytest.mark.parametrize(
    "text", ["0/3", "4/3", "a/b", "1/0", "1/33", "", "1/", "/3", "-1/3", "1.0/2"]
)
def test_malformed_shard_specs_are_refused(text: str) -> None:
    with pytest.raises(ShardError, match="expected K/N"):
        parse_shard(text)


@pytest.mark.parametrize(
    ("text", "index", "count"), [("1/1", 1, 1), ("3/3", 3, 3), ("2/32", 2, 32)]
)
def test_well_formed_shard_specs(text: str, index: int, count: int) -> None:
    assert parse_shard(text) == ShardSpec(index, count)
    assert str(parse_shard(text)) == text


items_strategy = st.lists(
    st.tuples(st.integers(0, 10_000), st.floats(0, 100, allow_nan=False)),
    unique_by=lambda t: t[0],
    max_size=60,
).map(lambda pairs: tuple(Item(f"m-{n:012x}", cost) for n, cost in pairs))


@given(items_strategy, st.integers(1, MAX_SHARDS))
def test_slices_partition_the_plan_in_plan_order(items: tuple[Item, ...], count: int) -> None:
    slices = balanced_slices(items, count)
    assert len(slices) == count
    flat = [i for s in slices for i in s]
    assert sorted(flat) == sorted(i.id for i in items)  # every item exactly once
    position = {item.id: n for n, item in enumerate(items)}
    for s in slices:
        assert [position[i] for i in s] == sorted(position[i] for i in s)


@given(items_strategy, st.integers(1, MAX_SHARDS))
def test_slices_are_balanced_within_one_item(items: tuple[Item, ...], count: int) -> None:
    cost = {i.id: i.cost for i in items}
    loads = [sum(cost[i] for i in s) for s in balanced_slices(items, count)]
    biggest = max((i.cost for i in items), default=0.0)
    assert max(loads) - min(loads) <= biggest + 1e-9


@given(items_strategy)
def test_one_shard_is_the_whole_plan(items: tuple[Item, ...]) -> None:
    assert balanced_slices(items, 1) == (tuple(i.id for i in items),)


def test_equal_costs_split_evenly() -> None:
    items = tuple(Item(f"m-{n:012x}", 1.0) for n in range(10))
    assert [len(s) for s in balanced_slices(items, 3)] == [4, 3, 3]


def test_a_duplicate_item_is_refused() -> None:
    with pytest.raises(ShardError, match="twice"):
        balanced_slices((Item("a", 1.0), Item("a", 2.0)), 2)
