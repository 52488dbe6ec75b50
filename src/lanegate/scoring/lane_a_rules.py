"""Predicates of the Lane A column (SPEC 10) where it reads the evidence differently from Lane B.

A diff a human owns is scored by the repository's ordinary standards: unit tests are evidence (a
mutant any test killed counts toward the budgets), and a base test the human changed or deleted is
theirs to change (its head version is a changed test, replayed by the flake lane). Which rows keep
failing, become notes or do not apply is data in `table.TABLE`, not here.
"""

from __future__ import annotations

from collections.abc import Iterator

from lanegate.ledgers.models import Mutant, MutantStatus, PropertyLedger
from lanegate.model import Location
from lanegate.scoring import property_rules as prop
from lanegate.scoring.evidence import Hit, RuleContext

_FILE = "property.json"


def detected_by_a_test(m: Mutant, void: frozenset[str]) -> bool:
    """Killed by any test (a property or a unit test) whose kills are not void, or a timeout or
    memory-cap mutant the lane recorded as detected."""
    if m.status is MutantStatus.KILLED:
        return m.killed_by not in void
    return m.detected and m.status in (MutantStatus.TIMEOUT, MutantStatus.MEMORY)


def mutant_budget(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Fewer mutants detected by any test than the budget: the changed lines' tests let planted
    bugs through (a follow-up for a human diff)."""
    void = prop.voided_killers(ledger.canaries)
    detected = sum(1 for m in ledger.mutants if detected_by_a_test(m, void))
    if detected < ledger.mutant_budget:
        alive = [m for m in ledger.mutants if not detected_by_a_test(m, void)]
        shown = prop.shown_undetected(alive, void)
        yield Hit(
            f"{detected} of {ledger.mutants_planted} mutants detected by a test (a property or a "
            f"unit test), budget {ledger.mutant_budget}; {prop.mutant_tally(ledger.mutants)}"
            + (f"; not detected: {shown}" if shown else ""),
            Location(_FILE, route=("mutants",)),
        )


def function_budget(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A changed function whose own mutants any test detects below the kill ratio."""
    ratio = ctx.policy.properties.mutant_kill_ratio
    void = prop.voided_killers(ledger.canaries)
    groups: dict[tuple[str, str], list[bool]] = {}
    for m in ledger.mutants:
        groups.setdefault((m.path, m.function), []).append(detected_by_a_test(m, void))
    for (path, function), kills in sorted(groups.items()):
        needed = prop.required_mutant_budget(ratio, len(kills))
        if sum(kills) < needed:
            yield Hit(
                f"{path}: {function}: {sum(kills)} of {len(kills)} mutants detected by a test, "
                f"needs {needed}",
                Location(_FILE, route=("mutants",)),
            )


def base_test_failed(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A base test the human did not change fails at head; the ones the diff changed or deleted
    (run restored at head) are the human's to change."""
    kept = [run for run in ledger.base_tests if not run.restored]
    yield from prop.base_failures(ledger, ctx, kept)
