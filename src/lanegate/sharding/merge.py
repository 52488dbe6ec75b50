"""The shard merge: a lane plan's shard ledgers -> that lane's one ledger, or the reasons they do not
merge. Pure (no I/O): every planned mutant or test file must come back exactly once, from the shard
whose slice holds it, of this plan, of the run attempt being scored.

A shard's ledger was written in a job that ran the head's code, so nothing it claims is taken on
trust: its slice is recomputed from the plan, its plan digest compared, and the evidence every shard
measures alike (base and head, properties and cases, base tests, leases) must agree across shards.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lanegate.lanes.property.changes import merge as merge_changes
from lanegate.ledgers.models import FlakeLedger, FlakeTest, PropertyLedger, ReplayRecord
from lanegate.model import Lane
from lanegate.scoring.evidence import ShardProblem
from lanegate.scoring.property_rules import (
    counts_as_detected,
    operator_mutants,
    required_mutant_budget,
    voided_killers,
)
from lanegate.sharding.ledger_file import ShardedLedger, ShardLedger
from lanegate.sharding.plan import LanePlan

# Fields each shard measures on its own (timing, its own control run, its slice): not compared.
_PROPERTY_OWN = frozenset(
    {
        "created_utc",
        "command",
        "effective_settings",
        "mutants",
        "mutants_planted",
        "killed_mutants",
        "mutant_budget",
        "canary_seed",  # each shard draws its own canaries: the score job re-derives each shard's
        "canaries",
        # a shard lists the reverts of its slice: merged, verdicts re-derived (every shard's
        # behaviour diff draws the same inputs: its seed is the plan's mutant draw)
        "changed_functions",
    }
)
_FLAKE_OWN = frozenset({"created_utc", "deterministic", "replays", "tests", "leases"})
_MAX_REPRODUCE = 2000


@dataclass(frozen=True, slots=True)
class MergeResult:
    """The merged ledger (None when the shards do not merge) and every reason they do not."""

    ledger: ShardedLedger | None
    problems: tuple[ShardProblem, ...]


def _lane(plan: LanePlan) -> Lane:
    return Lane.PROPERTY if plan.lane == "property" else Lane.FLAKE


def _listed(ledger: ShardedLedger) -> list[str]:
    """What a shard claims to have run: mutant ids, or the node ids of its tests."""
    if isinstance(ledger, PropertyLedger):
        return [m.id for m in ledger.mutants]
    return [t.node_id for t in ledger.tests]


def _file_of(node_id: str) -> str:
    return node_id.split("::", 1)[0]


def _slice_problems(plan: LanePlan, shard: ShardLedger, lane: Lane) -> list[ShardProblem]:
    wanted = plan.slice(shard.spec)
    listed = _listed(shard.ledger)
    twice = sorted(k for k, n in Counter(listed).items() if n > 1)
    out = []
    if twice:
        out.append(
            ShardProblem(
                "shard-duplicate",
                lane,
                f"{plan.lane} shard {shard.spec} lists {len(twice)} item(s) twice ({twice[0]})",
                shard.path,
            )
        )
    if isinstance(shard.ledger, PropertyLedger):
        outside = sorted(set(listed) - set(wanted))
        absent = sorted(set(wanted) - set(listed))
    else:  # a test belongs to the slice of its file; a file may yield no test (checked on merge)
        outside = sorted(n for n in set(listed) if _file_of(n) not in set(wanted))
        absent = []
    if outside or absent:
        parts = [f"{len(outside)} outside its slice ({outside[0]})"] if outside else []
        parts += [f"{len(absent)} of its slice absent ({absent[0]})"] if absent else []
        out.append(
            ShardProblem(
                "shard-slice",
                lane,
                f"{plan.lane} shard {shard.spec}: " + "; ".join(parts),
                shard.path,
            )
        )
    return out


def _shared(ledger: ShardedLedger, own: frozenset[str]) -> dict[str, object]:
    out: dict[str, object] = {}
    for f in dataclasses.fields(ledger):
        if f.name in own:
            continue
        out[f.name] = getattr(ledger, f.name)
    if isinstance(ledger, FlakeLedger):  # a lease is touched in the shard that replayed its test
        out["leases"] = tuple(dataclasses.replace(x, touched_by_diff=False) for x in ledger.leases)
    return out


def _disagreements(shards: Sequence[ShardLedger], lane: Lane) -> list[ShardProblem]:
    own = _PROPERTY_OWN if lane is Lane.PROPERTY else _FLAKE_OWN
    first = _shared(shards[0].ledger, own)
    out = []
    for shard in shards[1:]:
        other = _shared(shard.ledger, own)
        differ = sorted(k for k in first if first[k] != other.get(k))
        if differ:
            out.append(
                ShardProblem(
                    "shard-disagree",
                    lane,
                    f"shard {shard.spec} disagrees with shard {shards[0].spec} on "
                    f"{', '.join(differ[:5])}",
                    shard.path,
                )
            )
    return out


def _merge_property(plan: LanePlan, shards: Sequence[ShardLedger]) -> PropertyLedger:
    ledgers = [s.ledger for s in shards if isinstance(s.ledger, PropertyLedger)]
    by_id = {m.id: m for ledger in ledgers for m in ledger.mutants}
    mutants = tuple(by_id[item.id] for item in plan.items)
    # a test that killed a canary in any shard tests the code's text: its kills are void in all
    canaries = tuple(c for ledger in ledgers for c in ledger.canaries)
    void = voided_killers(canaries)
    first = ledgers[0]
    settings = dict(first.effective_settings)
    control = next(
        (
            ledger.effective_settings.get("control_problem")
            for ledger in ledgers
            if ledger.effective_settings.get("control_problem")
        ),
        settings.get("control_problem"),
    )
    if "control_problem" in settings or control:
        settings["control_problem"] = control
    return dataclasses.replace(
        first,
        effective_settings=settings,
        mutants=mutants,
        canaries=canaries,
        mutants_planted=len(mutants),
        killed_mutants=sum(1 for m in mutants if counts_as_detected(m, void)),
        mutant_budget=required_mutant_budget(
            first.mutant_kill_ratio, len(operator_mutants(mutants))
        ),
        changed_functions=merge_changes(
            [ledger.changed_functions for ledger in ledgers], mutants, canaries
        ),
    )


def _renumbered(test: FlakeTest, offset: int, label: str) -> FlakeTest:
    reproduce = test.reproduce
    if reproduce is not None and label:
        reproduce = f"{label}: {reproduce}"[:_MAX_REPRODUCE]
    return dataclasses.replace(
        test,
        replays=tuple(dataclasses.replace(r, replay=r.replay + offset) for r in test.replays),
        batches=tuple(dataclasses.replace(b, replay=b.replay + offset) for b in test.batches),
        reproduce=reproduce,
    )


def _merge_flake(plan: LanePlan, shards: Sequence[ShardLedger]) -> FlakeLedger:
    ledgers = [(s.spec, s.ledger) for s in shards if isinstance(s.ledger, FlakeLedger)]
    position = {item.id: n for n, item in enumerate(plan.items)}
    offset = 0
    replays: list[ReplayRecord] = []
    tests: list[tuple[int, int, FlakeTest]] = []
    for spec, ledger in ledgers:
        label = f"shard {spec}" if spec.count > 1 else ""
        replays.extend(dataclasses.replace(r, replay=r.replay + offset) for r in ledger.replays)
        for n, test in enumerate(ledger.tests):
            tests.append((position[_file_of(test.node_id)], n, _renumbered(test, offset, label)))
        # replay numbers may start at 0 or 1: the next shard starts past this one's highest
        offset += max((r.replay + 1 for r in ledger.replays), default=0)
    merged_tests = tuple(t for _, _, t in sorted(tests, key=lambda x: (x[0], x[1])))
    first = ledgers[0][1]
    leases = tuple(
        dataclasses.replace(
            lease,
            touched_by_diff=any(ledger.leases[n].touched_by_diff for _, ledger in ledgers),
        )
        for n, lease in enumerate(first.leases)
    )
    return dataclasses.replace(
        first,
        deterministic=all(t.deterministic for t in merged_tests),
        replays=tuple(replays),
        tests=merged_tests,
        leases=leases,
    )


def merge_lane(plan: LanePlan, shards: Iterable[ShardLedger], run_attempt: int) -> MergeResult:
    """Merge the shard ledgers of `plan`'s lane. Any shard missing, duplicated, extra, of another
    plan or run attempt, or claiming items outside its slice, is a problem and nothing merges."""
    lane = _lane(plan)
    problems: list[ShardProblem] = []
    accepted: list[ShardLedger] = []
    for shard in shards:
        if shard.lane != plan.lane:
            problems.append(
                ShardProblem(
                    "shard-extra",
                    lane,
                    f"a {shard.lane} shard among the {plan.lane} shards",
                    shard.path,
                )
            )
        elif shard.spec.count != plan.shards:
            problems.append(
                ShardProblem(
                    "shard-extra",
                    lane,
                    f"{plan.lane} shard {shard.spec} is not one of the plan's {plan.shards}",
                    shard.path,
                )
            )
        elif shard.plan_digest != plan.digest:
            problems.append(
                ShardProblem(
                    "shard-plan-mismatch",
                    lane,
                    f"{plan.lane} shard {shard.spec} ran plan {shard.plan_digest[:19]}..., "
                    f"not {plan.digest[:19]}...",
                    shard.path,
                )
            )
        elif shard.ledger.run_attempt != run_attempt:
            problems.append(
                ShardProblem(
                    "shard-attempt",
                    lane,
                    f"{plan.lane} shard {shard.spec} is from run attempt "
                    f"{shard.ledger.run_attempt}, not {run_attempt}",
                    shard.path,
                )
            )
        else:
            accepted.append(shard)
    counts = Counter(s.spec.index for s in accepted)
    problems.extend(
        ShardProblem(
            "shard-duplicate",
            lane,
            f"{counts[index]} ledgers claim {plan.lane} shard {index}/{plan.shards}",
        )
        for index in sorted(k for k, n in counts.items() if n > 1)
    )
    slices = plan.slices()
    problems.extend(
        ShardProblem(
            "shard-missing",
            lane,
            f"{plan.lane} shard {index}/{plan.shards} never reported a ledger "
            f"(its slice: {len(slices[index - 1])} item(s))",
        )
        for index in range(1, plan.shards + 1)
        if index not in counts
    )
    unique = sorted((s for s in accepted if counts[s.spec.index] == 1), key=lambda s: s.spec.index)
    for shard in unique:
        problems.extend(_slice_problems(plan, shard, lane))
    if unique:
        problems.extend(_disagreements(unique, lane))
    if problems:
        return MergeResult(None, tuple(problems))
    merged = _merge_property(plan, unique) if lane is Lane.PROPERTY else _merge_flake(plan, unique)
    return MergeResult(merged, ())
