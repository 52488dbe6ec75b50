"""The plan file: derived from a real git diff, written and read back, and refused when altered."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from lanegate.diff import classify_diff
from lanegate.errors import ShardError
from lanegate.policy import load_policy
from lanegate.sharding.plan import (
    build_plan,
    derive_like,
    load_plan,
    parse_count,
    plan_bytes,
    plan_from_bytes,
    shard_run,
    write_plan,
)
from lanegate.sharding.slices import ShardSpec
from tests.gitrepo import Repo

SOURCE = "def f(a, b):\n    if a < b:\n        return a + 1\n    return b - 1\n"


def _repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("plan")
    repo.write("lib.py", "def f(a, b):\n    return a\n")
    repo.write("lanegate.toml", "[properties]\nmax_mutants = 6\n")
    repo.commit("base")
    repo.branch("feature")
    repo.write("lib.py", SOURCE)
    repo.write("tests/test_one.py", "def test_one():\n    pass\n")
    repo.write("tests/test_two.py", "def test_two():\n    pass\n\n\ndef test_three():\n    pass\n")
    repo.commit("feature")
    return repo


def test_plan_round_trips_and_is_refused_when_any_field_changes(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    repo = _repo(make_repo)
    policy = load_policy(repo.path)
    summary = classify_diff(repo.path, "main", policy)
    plan = build_plan(repo.path, summary, policy, property_shards=3, flake_shards=2, draw=11)
    assert len(plan.property.items) == 7  # 6 operator mutants and the changed function's revert
    assert [i.id for i in plan.flake.items] == ["tests/test_one.py", "tests/test_two.py"]
    assert plan.flake.items[1].cost > plan.flake.items[0].cost  # longer file, costlier
    path = tmp_path / "plan.json"
    write_plan(path, plan)
    assert load_plan(path) == plan
    derive_like(repo.path, summary, policy, load_plan(path), str(path))

    doc = json.loads(plan_bytes(plan))
    doc["lanes"]["property"]["items"].pop()  # a mutant left out of the plan
    with pytest.raises(ShardError, match="'digest' does not match"):
        plan_from_bytes(json.dumps(doc).encode(), "plan.json")
    redrawn = json.loads(plan_bytes(plan))
    redrawn["mutant_draw"] = 12  # another draw under the same digests
    with pytest.raises(ShardError, match="'digest' does not match"):
        plan_from_bytes(json.dumps(redrawn).encode(), "plan.json")
    for odd in (-1, 2**62, "11", True, None):
        redrawn["mutant_draw"] = odd
        with pytest.raises(ShardError, match="mutant_draw"):
            plan_from_bytes(json.dumps(redrawn).encode(), "plan.json")
    for key, value in (("shards", 33), ("shards", "2"), ("items", {}), ("extra", 1)):
        broken = json.loads(plan_bytes(plan))
        broken["lanes"]["flake"][key] = value
        with pytest.raises(ShardError, match=r"plan\.json: lanes\.flake"):
            plan_from_bytes(json.dumps(broken).encode(), "plan.json")
    with pytest.raises(ShardError, match="not a JSON object"):
        plan_from_bytes(b"[]", "plan.json")
    with pytest.raises(ShardError, match="plan.json"):
        plan_from_bytes(b"{not json", "plan.json")


def test_a_plan_of_another_head_or_shard_count_is_refused(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    repo = _repo(make_repo)
    policy = load_policy(repo.path)
    old = build_plan(
        repo.path,
        classify_diff(repo.path, "main", policy),
        policy,
        property_shards=2,
        flake_shards=1,
        draw=3,
    )
    path = tmp_path / "plan.json"
    write_plan(path, old)
    repo.write("lib.py", SOURCE.replace("a + 1", "a + 2"))
    repo.commit("another head")
    summary = classify_diff(repo.path, "main", policy)
    with pytest.raises(ShardError, match="digest"):
        shard_run(repo.path, summary, policy, "property", ShardSpec(1, 2), path)
    with pytest.raises(ShardError, match="2 shard"):
        shard_run(repo.path, summary, policy, "property", ShardSpec(1, 3), path)
    local = shard_run(repo.path, summary, policy, "flake", ShardSpec(2, 2), None)
    assert local.items == ("tests/test_one.py",) or local.items == ("tests/test_two.py",)


@pytest.mark.parametrize("text", ["0", "33", "-1", "1.5", "", "two", "1 2"])
def test_shard_counts_outside_1_to_32_are_refused(text: str) -> None:
    with pytest.raises(ShardError, match="between 1 and 32"):
        parse_count(text, "--property-shards")
