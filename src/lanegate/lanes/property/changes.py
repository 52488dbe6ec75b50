"""The diff's changed functions as evidence: their revert mutants, and the behaviour diff of base and head.

`revert.plan_reverts` plants the base's version of every changed function (and module-level hunk)
among the mutants; once they ran, each changed function gets one `ChangeEvidence` entry in the
ledger: its revert ids, the reverts that could not be planted, the verdict the scorer derives from
them (`scoring.property_rules.revert_verdict`), and what the behaviour diff
(`lanegate.lanes.property.behaviour`, called once per lane run within its CPU budget) found when it
ran base and head side by side on the same inputs. Module-level code has no call to compare: its
entry (one per file, qualname "<module>") says so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from lanegate.diff import DiffSummary
from lanegate.lanes.property.behaviour import (
    BehaviourRequest,
    ChangedFunction,
    diff_behaviour,
)
from lanegate.lanes.property.revert import MODULE, RevertPlan, is_revert
from lanegate.ledgers.models import BehaviourDifference, ChangeEvidence, InputSource, Mutant
from lanegate.policy import Policy
from lanegate.sandbox import Sandbox
from lanegate.scoring.property_rules import revert_verdict, voided_killers

MODULE_REASON = "module-level code: the behaviour diff compares functions"
MAX_DIFFERENCES = 5


@dataclass(frozen=True, slots=True)
class Behaviour:
    """What the behaviour diff said of one function (the engine's `FunctionBehaviour`, as read)."""

    verdict: str
    inputs_tried: int
    sources: tuple[tuple[str, int], ...]
    differences: tuple[tuple[str, str, str], ...]
    reason: str
    seconds: float


def compare(
    repo: Path,
    summary: DiffSummary,
    plan: RevertPlan,
    tests: Sequence[str],
    *,
    sandbox: Sandbox,
    policy: Policy,
    seed: int,
) -> dict[tuple[str, str], Behaviour]:
    """Run the behaviour diff once over every changed function of `plan`, within
    `properties.behaviour_cpu_seconds` (nothing when it has none)."""
    if not plan.functions:
        return {}
    functions = tuple(
        ChangedFunction(
            path=f.path,
            qualname=f.qualname,
            base_path=f.base_path,
            base_qualname=f.base_qualname,
            literals=f.literals,
        )
        for f in plan.functions
    )
    request = BehaviourRequest(
        repo=repo,
        base=summary.merge_base,
        head=summary.head_commit,
        functions=functions,
        tests=tuple(tests),
        cpu_seconds=policy.properties.behaviour_cpu_seconds,
        seed=seed,
        max_examples=policy.properties.max_examples,
    )
    answers = diff_behaviour(request, sandbox=sandbox, policy=policy)
    return {
        (a.path, a.qualname): Behaviour(
            a.verdict,
            a.inputs_tried,
            tuple(a.sources),
            tuple((d.call, d.base, d.head) for d in a.differences),
            a.reason,
            a.seconds,
        )
        for a in answers
    }


def evidence(
    plan: RevertPlan,
    mutants: Sequence[Mutant],
    canaries: Sequence[Mutant],
    behaviour: dict[tuple[str, str], Behaviour],
) -> tuple[ChangeEvidence, ...]:
    """One entry per changed function (and per file with module-level reverts), in plan order."""
    by_id = {m.id: m for m in mutants}
    void = voided_killers(tuple(canaries))
    out: list[ChangeEvidence] = []
    for f in plan.functions:
        reverts = _ids(mutants, f.path, f.qualname)
        problems = [p.what for p in plan.problems if (p.path, p.function) == (f.path, f.qualname)]
        missing = Behaviour("not-compared", 0, (), (), "the behaviour diff gave no answer", 0.0)
        found = behaviour.get((f.path, f.qualname), missing)
        out.append(
            _entry(
                f.path,
                f.qualname,
                f.base_path,
                f.base_qualname,
                f.matched,
                reverts,
                problems,
                found,
                by_id,
                void,
            )
        )
    for path in sorted({m.path for m in mutants if m.operator == "revert-module"}):
        reverts = _ids(mutants, path, MODULE)
        problems = [p.what for p in plan.problems if (p.path, p.function) == (path, MODULE)]
        module = Behaviour("not-compared", 0, (), (), MODULE_REASON, 0.0)
        out.append(
            _entry(path, MODULE, path, MODULE, "module", reverts, problems, module, by_id, void)
        )
    return tuple(out)


def _ids(mutants: Iterable[Mutant], path: str, qualname: str) -> tuple[str, ...]:
    return tuple(
        m.id for m in mutants if is_revert(m.operator) and (m.path, m.function) == (path, qualname)
    )


def _entry(
    path: str,
    qualname: str,
    base_path: str,
    base_qualname: str,
    matched: str,
    reverts: tuple[str, ...],
    problems: list[str],
    found: Behaviour,
    by_id: dict[str, Mutant],
    void: frozenset[str],
) -> ChangeEvidence:
    draft = ChangeEvidence(
        path=path,
        qualname=qualname,
        base_path=base_path,
        base_qualname=base_qualname,
        matched=matched,
        reverts=reverts,
        revert_problems=tuple(p[:4096] for p in problems),
        revert_verdict="",
        revert_killed_by=None,
        behaviour=found.verdict,
        inputs_tried=found.inputs_tried,
        input_sources=tuple(InputSource(source=s[:100], count=n) for s, n in found.sources),
        differences=tuple(
            BehaviourDifference(call=c[:400], base=b[:400], head=h[:400])
            for c, b, h in found.differences[:MAX_DIFFERENCES]
        ),
        behaviour_reason=found.reason[:4096],
        behaviour_seconds=round(max(0.0, found.seconds), 3),
    )
    verdict, killer = revert_verdict(draft, by_id, void)
    return dataclasses.replace(draft, revert_verdict=verdict, revert_killed_by=killer)


def line(c: ChangeEvidence) -> str:
    """One changed function's evidence in a line: pinned by whom, or what the behaviour diff saw."""
    where = f"{c.path}::{c.qualname}"
    inputs = f"{c.inputs_tried} inputs"
    if c.behaviour == "differs":
        shown = "; ".join(f"{d.call}: base {d.base}, head {d.head}" for d in c.differences[:3])
        seen = f"behaviour differs in {inputs} ({shown})"
    elif c.behaviour == "same":
        seen = f"no behaviour difference in {inputs}"
    else:
        seen = f"behaviour not compared ({c.behaviour_reason})"
    if c.revert_verdict == "pinned":
        return f"{where}: pinned by {c.revert_killed_by}; {seen}"
    return f"{where}: revert {c.revert_verdict}; {seen}"


def summary(changes: Sequence[ChangeEvidence]) -> str:
    """One clause for the lane's summary: what the reverts and the behaviour diff showed."""
    if not changes:
        return ""
    return f"changed functions ({len(changes)}): " + "; ".join(line(c) for c in changes)


_PRECEDENCE = {"differs": 0, "same": 1, "not-compared": 2}


def merge(
    shards: Sequence[Sequence[ChangeEvidence]],
    mutants: Sequence[Mutant],
    canaries: Sequence[Mutant],
) -> tuple[ChangeEvidence, ...]:
    """The changed functions of a sharded run: each shard lists the reverts of its slice, and ran
    the behaviour diff with its own seed; a difference any shard found stands (it is an input on
    which base and head disagree), and each verdict is derived again from all the reverts."""
    by_id = {m.id: m for m in mutants}
    void = voided_killers(tuple(canaries))
    grouped: dict[tuple[str, str], list[ChangeEvidence]] = {}
    for entries in shards:
        for entry in entries:
            grouped.setdefault((entry.path, entry.qualname), []).append(entry)
    out = []
    for group in grouped.values():
        best = min(group, key=lambda e: _PRECEDENCE.get(e.behaviour, 3))
        reverts = tuple(dict.fromkeys(i for e in group for i in e.reverts))
        draft = dataclasses.replace(best, reverts=reverts)
        verdict, killer = revert_verdict(draft, by_id, void)
        out.append(dataclasses.replace(draft, revert_verdict=verdict, revert_killed_by=killer))
    return tuple(out)
