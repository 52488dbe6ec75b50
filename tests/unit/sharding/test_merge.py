"""The shard merge: a partition of a plan merges back to the unsharded ledger; anything else fails."""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from lanegate.ledgers.models import FlakeLedger, MutantStatus, PropertyLedger
from lanegate.scoring.property_rules import counts_as_detected, required_mutant_budget
from lanegate.sharding.ledger_file import ShardLedger
from lanegate.sharding.merge import merge_lane
from lanegate.sharding.plan import LanePlan, lane_digest
from lanegate.sharding.slices import Item, ShardSpec
from tests.unit.scoring import samples

STATUSES = st.sampled_from(
    [MutantStatus.KILLED, MutantStatus.SURVIVED, MutantStatus.NO_TESTS, MutantStatus.TIMEOUT]
)


def lane_plan(lane: str, items: tuple[Item, ...], shards: int) -> LanePlan:
    digest = lane_digest(lane, shards, items, samples.BASE, samples.HEAD, samples.digest("d"), 0)
    return LanePlan(lane, shards, items, digest)


def _totals(ledger: PropertyLedger) -> PropertyLedger:
    return dataclasses.replace(
        ledger,
        mutants_planted=len(ledger.mutants),
        killed_mutants=sum(1 for m in ledger.mutants if counts_as_detected(m)),
        mutant_budget=required_mutant_budget(ledger.mutant_kill_ratio, len(ledger.mutants)),
    )


def unsharded_property(statuses: list[MutantStatus]) -> PropertyLedger:
    mutants = tuple(samples.mutant(n, status) for n, status in enumerate(statuses))
    return _totals(dataclasses.replace(samples.property_ledger(), mutants=mutants))


def property_shards(ledger: PropertyLedger, plan: LanePlan) -> list[ShardLedger]:
    """What each shard job writes: the same run, restricted to its slice's mutants."""
    out = []
    for index, ids in enumerate(plan.slices(), start=1):
        wanted = set(ids)
        own = _totals(
            dataclasses.replace(ledger, mutants=tuple(m for m in ledger.mutants if m.id in wanted))
        )
        spec = ShardSpec(index, plan.shards)
        out.append(ShardLedger("property", spec, plan.digest, own, f"property-shard-{index}"))
    return out


@st.composite
def property_case(draw: st.DrawFn) -> tuple[PropertyLedger, LanePlan, list[ShardLedger]]:
    statuses = draw(st.lists(STATUSES, max_size=14))
    ledger = unsharded_property(statuses)
    costs = draw(st.lists(st.floats(0.5, 5), min_size=len(statuses), max_size=len(statuses)))
    items = tuple(Item(m.id, c) for m, c in zip(ledger.mutants, costs, strict=True))
    plan = lane_plan("property", items, draw(st.integers(1, 6)))
    shards = draw(st.permutations(property_shards(ledger, plan)))
    return ledger, plan, list(shards)


@given(property_case())
def test_a_partition_merges_to_the_unsharded_ledger_in_any_order(
    case: tuple[PropertyLedger, LanePlan, list[ShardLedger]],
) -> None:
    ledger, plan, shards = case
    result = merge_lane(plan, shards, run_attempt=1)
    assert result.problems == ()
    assert result.ledger == ledger


@given(st.lists(STATUSES, max_size=14))
def test_one_shard_merge_is_the_identity(statuses: list[MutantStatus]) -> None:
    ledger = unsharded_property(statuses)
    plan = lane_plan("property", tuple(Item(m.id, 1.0) for m in ledger.mutants), 1)
    shard = ShardLedger("property", ShardSpec(1, 1), plan.digest, ledger, "p")
    assert merge_lane(plan, [shard], 1).ledger == ledger


def _rules(result: object) -> set[str]:
    return {p.rule_id for p in result.problems}  # type: ignore[attr-defined]


@given(property_case(), st.data())
def test_a_dropped_shard_is_missing(case: tuple, data: st.DataObject) -> None:
    _, plan, shards = case
    dropped = data.draw(st.integers(0, len(shards) - 1))
    result = merge_lane(plan, shards[:dropped] + shards[dropped + 1 :], 1)
    assert result.ledger is None
    assert _rules(result) == {"shard-missing"}


@given(property_case(), st.data())
def test_a_duplicated_shard_is_detected(case: tuple, data: st.DataObject) -> None:
    _, plan, shards = case
    twice = data.draw(st.sampled_from(shards))
    result = merge_lane(plan, [*shards, twice], 1)
    assert result.ledger is None
    assert "shard-duplicate" in _rules(result)


@given(property_case(), st.data())
def test_a_shard_claiming_another_slices_mutant_is_caught(case: tuple, data: st.DataObject) -> None:
    """A shard that adds a kill of a mutant from another shard's slice (or one nobody planned)."""
    _, plan, shards = case
    thief = data.draw(st.integers(0, len(shards) - 1))
    victims = [m for n, s in enumerate(shards) if n != thief for m in s.ledger.mutants]
    stolen = data.draw(st.sampled_from(victims)) if victims else samples.mutant(999)
    ledger = shards[thief].ledger
    assert isinstance(ledger, PropertyLedger)
    forged = _totals(dataclasses.replace(ledger, mutants=(*ledger.mutants, stolen)))
    shards[thief] = dataclasses.replace(shards[thief], ledger=forged)
    result = merge_lane(plan, shards, 1)
    assert result.ledger is None
    assert "shard-slice" in _rules(result)


@given(property_case(), st.data())
def test_a_shard_leaving_out_its_survivor_is_caught(case: tuple, data: st.DataObject) -> None:
    _, plan, shards = case
    with_mutants = [n for n, s in enumerate(shards) if s.ledger.mutants]
    if not with_mutants:
        return
    n = data.draw(st.sampled_from(with_mutants))
    ledger = shards[n].ledger
    assert isinstance(ledger, PropertyLedger)
    shards[n] = dataclasses.replace(
        shards[n], ledger=_totals(dataclasses.replace(ledger, mutants=ledger.mutants[1:]))
    )
    assert _rules(merge_lane(plan, shards, 1)) == {"shard-slice"}


def test_another_plan_attempt_count_and_disagreement_each_fail() -> None:
    ledger = unsharded_property([MutantStatus.KILLED] * 6)
    plan = lane_plan("property", tuple(Item(m.id, 1.0) for m in ledger.mutants), 3)
    shards = property_shards(ledger, plan)
    other_plan = dataclasses.replace(shards[0], plan_digest=samples.digest("e"))
    assert _rules(merge_lane(plan, [other_plan, *shards[1:]], 1)) == {
        "shard-plan-mismatch",
        "shard-missing",
    }
    attempt_2 = dataclasses.replace(
        shards[1], ledger=dataclasses.replace(shards[1].ledger, run_attempt=2)
    )
    assert _rules(merge_lane(plan, [shards[0], attempt_2, shards[2]], 1)) == {
        "shard-attempt",
        "shard-missing",
    }
    of_four = dataclasses.replace(shards[2], spec=ShardSpec(3, 4))
    assert "shard-extra" in _rules(merge_lane(plan, [*shards, of_four], 1))
    failed_cases = dataclasses.replace(
        shards[2], ledger=dataclasses.replace(shards[2].ledger, cases_failed=1)
    )
    assert _rules(merge_lane(plan, [*shards[:2], failed_cases], 1)) == {"shard-disagree"}
    flake_one = ShardLedger("flake", ShardSpec(1, 3), plan.digest, samples.flake_ledger(), "f")
    assert "shard-extra" in _rules(merge_lane(plan, [*shards, flake_one], 1))
    assert merge_lane(plan, shards, 1).ledger == ledger


# --- flake ---------------------------------------------------------------------------------------

FILES = tuple(f"tests/test_f{n}.py" for n in range(7))


def unsharded_flake(tests_per_file: list[int]) -> FlakeLedger:
    tests = tuple(
        samples.flake_test(f"{FILES[f]}::test_{t}")
        for f, count in enumerate(tests_per_file)
        for t in range(count)
    )
    return dataclasses.replace(samples.flake_ledger(), tests=tests)


def flake_shards(ledger: FlakeLedger, plan: LanePlan) -> list[ShardLedger]:
    out = []
    for index, files in enumerate(plan.slices(), start=1):
        own = dataclasses.replace(
            ledger,
            tests=tuple(t for t in ledger.tests if t.node_id.split("::")[0] in files),
            replays=ledger.replays if files else (),
        )
        out.append(ShardLedger("flake", ShardSpec(index, plan.shards), plan.digest, own, "f"))
    return out


@st.composite
def flake_case(draw: st.DrawFn) -> tuple[FlakeLedger, LanePlan, list[ShardLedger]]:
    per_file = draw(st.lists(st.integers(0, 3), min_size=1, max_size=len(FILES)))
    ledger = unsharded_flake(per_file)
    items = tuple(Item(FILES[n], draw(st.floats(1, 50))) for n in range(len(per_file)))
    plan = lane_plan("flake", items, draw(st.integers(1, 5)))
    return ledger, plan, list(draw(st.permutations(flake_shards(ledger, plan))))


@given(flake_case(), st.randoms())
def test_flake_merge_keeps_every_test_once_in_plan_order(case: tuple, rnd: object) -> None:
    ledger, plan, shards = case
    result = merge_lane(plan, shards, 1)
    assert result.problems == ()
    merged = result.ledger
    assert isinstance(merged, FlakeLedger)
    assert [t.node_id for t in merged.tests] == [t.node_id for t in ledger.tests]
    assert [t.deterministic for t in merged.tests] == [t.deterministic for t in ledger.tests]
    numbers = [r.replay for r in merged.replays]
    assert len(numbers) == len(set(numbers))  # renumbered apart: no two shards share a replay
    for test in merged.tests:
        assert {o.replay for o in test.replays} <= set(numbers)
    # the order the shard files arrive in does not matter
    assert merge_lane(plan, sorted(shards, key=lambda s: -s.spec.index), 1) == result


@given(flake_case())
def test_flake_merge_of_one_shard_is_the_identity(case: tuple) -> None:
    ledger, plan, _ = case
    single = lane_plan("flake", plan.items, 1)
    shard = ShardLedger("flake", ShardSpec(1, 1), single.digest, ledger, "f")
    assert merge_lane(single, [shard], 1).ledger == ledger


def test_a_flake_shard_replaying_another_slices_test_is_caught() -> None:
    ledger = unsharded_flake([1, 1, 1])
    plan = lane_plan("flake", tuple(Item(f, 1.0) for f in FILES[:3]), 3)
    shards = flake_shards(ledger, plan)
    stolen = shards[1].ledger.tests[0]  # type: ignore[union-attr]
    forged = dataclasses.replace(
        shards[0].ledger,
        tests=(*shards[0].ledger.tests, stolen),  # type: ignore[union-attr]
    )
    shards[0] = dataclasses.replace(shards[0], ledger=forged)
    assert _rules(merge_lane(plan, shards, 1)) == {"shard-slice"}


def test_a_lease_is_touched_when_any_shard_touched_it() -> None:
    ledger = unsharded_flake([1, 1])
    plan = lane_plan("flake", tuple(Item(f, 1.0) for f in FILES[:2]), 2)
    shards = flake_shards(ledger, plan)
    lease = shards[1].ledger.leases[0]
    touched = dataclasses.replace(
        shards[1].ledger, leases=(dataclasses.replace(lease, touched_by_diff=True),)
    )
    shards[1] = dataclasses.replace(shards[1], ledger=touched)
    merged = merge_lane(plan, shards, 1).ledger
    assert isinstance(merged, FlakeLedger)
    assert merged.leases[0].touched_by_diff is True


def test_a_canary_killed_in_one_shard_voids_that_tests_kills_in_every_shard() -> None:
    ledger = unsharded_property([MutantStatus.KILLED] * 4)
    plan = lane_plan("property", tuple(Item(m.id, 1.0) for m in ledger.mutants), 2)
    shards = property_shards(ledger, plan)
    hit = dataclasses.replace(samples.mutant(90), id="c-1", operator="compare-mirror")
    quiet = dataclasses.replace(samples.mutant(91, MutantStatus.SURVIVED), id="c-2")
    # each shard drew its own canaries with its own seed: both are kept, shard 1 first
    first = dataclasses.replace(shards[0].ledger, canary_seed=11, canaries=(hit,))
    second = dataclasses.replace(shards[1].ledger, canary_seed=22, canaries=(quiet,))
    result = merge_lane(
        plan,
        [
            dataclasses.replace(shards[1], ledger=second),
            dataclasses.replace(shards[0], ledger=first),
        ],
        1,
    )
    assert result.problems == ()
    assert result.ledger is not None
    assert [c.id for c in result.ledger.canaries] == ["c-1", "c-2"]
    # the canary's killer killed every real mutant, in both shards: none of it counts
    assert result.ledger.killed_mutants == 0
