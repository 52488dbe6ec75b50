"""Predicates of the `shard-*` rows: each reports the merge problems of its own rule id."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from lanegate.model import Location
from lanegate.scoring.evidence import Hit, RuleContext, ScoreInputs


def problems_of(rule_id: str) -> Callable[[ScoreInputs, RuleContext], Iterator[Hit]]:
    """The predicate of row `rule_id`: one hit per shard problem with that id."""

    def check(inputs: ScoreInputs, ctx: RuleContext) -> Iterator[Hit]:
        for problem in inputs.shard_problems:
            if problem.rule_id == rule_id:
                where = Location(problem.path) if problem.path else None
                yield Hit(f"{problem.lane.value}: {problem.message}", where)

    check.__doc__ = f"Shard merge problems with rule id {rule_id}."
    return check


SHARD_RULE_IDS = (
    "shard-invalid",
    "shard-missing",
    "shard-duplicate",
    "shard-extra",
    "shard-slice",
    "shard-plan-mismatch",
    "shard-attempt",
    "shard-disagree",
)
