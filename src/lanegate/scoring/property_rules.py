"""Predicates of the property lane's rows: counted cases, oracles, and planted mutants vs the budget."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Iterator
from decimal import Decimal

from lanegate.ledgers.models import (
    REVERT_OPERATORS,
    AuthorKind,
    BaseRecheck,
    BaseTestRun,
    ChangeEvidence,
    KillKind,
    Mutant,
    MutantStatus,
    OracleFinding,
    PropertyLedger,
)
from lanegate.model import Location
from lanegate.scoring.evidence import Hit, RuleContext, duplicates

_FILE = "property.json"
SHOWN_MUTANTS = 5  # undetected mutants whose one-line diff the budget message shows


def required_mutant_budget(ratio: float, planted: int) -> int:
    """ceil(ratio x planted) computed in decimal, so 0.7 x 10 is 7 and not 8 (float rounding)."""
    return math.ceil(Decimal(repr(ratio)) * planted)


def _accepted_budgets(ratio: float, planted: int) -> set[int]:
    # A lane that computed ceil in binary floating point gets a budget one higher in rare cases
    # (0.7 * 10 = 7.000000000000001); that is stricter, so both are accepted.
    exact = required_mutant_budget(ratio, planted)
    return {exact, math.ceil(ratio * planted)} if math.isfinite(ratio * planted) else {exact}


def counts_as_detected(m: Mutant, void: frozenset[str] = frozenset()) -> bool:
    """A mutant counted in `killed_mutants`: killed by a trusted property test, or a timeout or
    memory-cap mutant the lane recorded as detected (Stryker's convention, see `Mutant.detected`).
    A kill by a test in `void` (one that also killed a canary) counts for nothing; a revert never
    counts here (its own rules read it)."""
    if is_revert(m):
        return False
    if m.status is MutantStatus.KILLED:
        return m.kill_kind is KillKind.PROPERTY and m.killed_by not in void
    return m.detected and m.status in (MutantStatus.TIMEOUT, MutantStatus.MEMORY)


def canary_hit(c: Mutant) -> bool:
    """A canary (behaviour-preserving edit) that a test told apart from the original code: killed,
    stopped and counted as detected, or left without a verdict."""
    return (
        c.status in (MutantStatus.KILLED, MutantStatus.ERROR)
        or c.detected
        and c.status in (MutantStatus.TIMEOUT, MutantStatus.MEMORY)
    )


def voided_killers(canaries: tuple[Mutant, ...] | list[Mutant]) -> frozenset[str]:
    """The tests whose kills are void: each killed a canary, so it tests the code's text."""
    return frozenset(str(c.killed_by) for c in canaries if c.killed_by is not None)


def _at(route: str) -> Location:
    return Location(_FILE, route=(route,))


def cases_failed(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """cases_failed > 0: a property found a counterexample."""
    failing = [p for p in ledger.properties if p.cases_failed > 0]
    for prop in failing:
        yield Hit(f"{prop.node_id}: {prop.cases_failed} of {prop.cases_run} cases failed")
    if ledger.cases_failed > 0 and not failing:
        yield Hit(f"cases_failed is {ledger.cases_failed}", _at("cases_failed"))


def no_cases(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """cases_run == 0: nothing was tested, which is no evidence."""
    if ledger.cases_run == 0:
        yield Hit("cases_run is 0: no property case ran", _at("cases_run"))
    for prop in ledger.properties:
        if prop.cases_run == 0:
            yield Hit(f"{prop.node_id}: ran 0 cases", _at("properties"))


def case_counts(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """The totals must be the sums of the per-property counts; failures cannot exceed runs."""
    run = sum(p.cases_run for p in ledger.properties)
    failed = sum(p.cases_failed for p in ledger.properties)
    if ledger.cases_run != run:
        yield Hit(f"cases_run is {ledger.cases_run} but the properties ran {run}", _at("cases_run"))
    if ledger.cases_failed != failed:
        yield Hit(
            f"cases_failed is {ledger.cases_failed} but the properties failed {failed}",
            _at("cases_failed"),
        )
    if ledger.cases_failed > ledger.cases_run:
        yield Hit(
            f"cases_failed ({ledger.cases_failed}) exceeds cases_run ({ledger.cases_run})",
            _at("cases_failed"),
        )
    for prop in ledger.properties:
        if prop.cases_failed > prop.cases_run:
            yield Hit(f"{prop.node_id}: cases_failed exceeds cases_run", _at("properties"))
    ids = [p.node_id for p in ledger.properties]
    for node_id in duplicates(ids):
        yield Hit(f"{node_id}: listed more than once", _at("properties"))


def missing_oracle(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A new or changed test file none of whose tests calls a property oracle (when
    fail_on_missing_oracle): the rule's unit is the file (SPEC 3.3). A rejected test in a file
    where another test passed the check fails nothing here; its kills do not count as a property's."""
    if not ctx.policy.properties.fail_on_missing_oracle:
        return
    satisfied = {p.node_id.split("::", 1)[0] for p in ledger.properties if p.passed_oracle_check}
    by_file: dict[str, list[OracleFinding]] = {}
    for finding in ledger.oracle_findings:
        by_file.setdefault(finding.path, []).append(finding)
    for path, findings in by_file.items():
        if path in satisfied:
            continue
        shown = "; ".join(f"{f.test}: {f.reason}" for f in findings[:SHOWN_MUTANTS])
        more = (
            f"; and {len(findings) - SHOWN_MUTANTS} more" if len(findings) > SHOWN_MUTANTS else ""
        )
        yield Hit(
            f"no test of this file calls an oracle on its own inputs ({shown}{more})",
            Location(path, line=findings[0].line, note="no oracle call"),
        )


def mutant_budget(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """killed_mutants < mutant_budget: the tests let too many planted bugs through."""
    if ledger.killed_mutants < ledger.mutant_budget:
        control = ledger.effective_settings.get("control_problem")
        void = voided_killers(ledger.canaries)
        operators = operator_mutants(ledger.mutants)
        alive = [m for m in operators if not counts_as_detected(m, void)]
        shown = shown_undetected(alive, void)
        yield Hit(
            f"{ledger.killed_mutants} of {len(operators)} operator mutants detected by a property, "
            f"budget {ledger.mutant_budget}; {mutant_tally(ledger.mutants)}"
            + (f"; mutants not judged: {control}" if isinstance(control, str) and control else "")
            + (f"; not detected: {shown}" if shown else ""),
            _at("killed_mutants"),
        )


def _undetected_status(m: Mutant, void: frozenset[str]) -> str:
    """What happened to a mutant that does not count: its status, and for a kill, why not."""
    if m.status is not MutantStatus.KILLED:
        return str(m.status).replace("_", " ")
    if m.killed_by in void:
        return f"killed by {m.killed_by}, void: it also killed a canary"
    if m.kill_kind is not KillKind.PROPERTY:
        return f"killed by a unit test only: {m.killed_by}"
    return "killed"


def shown_undetected(alive: list[Mutant], void: frozenset[str]) -> str:
    """The first SHOWN_MUTANTS mutants of `alive` as `path:line 'a' -> 'b' (why)`, and how many more."""
    shown = "; ".join(
        f"{m.path}:{m.line} {m.original!r} -> {m.replacement!r} ({_undetected_status(m, void)})"
        for m in alive[:SHOWN_MUTANTS]
    )
    more = f" and {len(alive) - SHOWN_MUTANTS} more" if len(alive) > SHOWN_MUTANTS else ""
    return shown + more


def zero_budget(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """mutant_budget == 0 while mutants were planted: a budget nobody has to meet."""
    operators = operator_mutants(ledger.mutants)
    if ledger.mutant_budget == 0 and operators:
        yield Hit(
            f"mutant_budget is 0 but {len(operators)} operator mutants were planted",
            _at("mutant_budget"),
        )


def budget_mismatch(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """The budget must be ceil(policy ratio x planted), with the policy's ratio, not the ledger's."""
    ratio = ctx.policy.properties.mutant_kill_ratio
    if not math.isclose(ledger.mutant_kill_ratio, ratio, rel_tol=0, abs_tol=1e-9):
        yield Hit(
            f"mutant_kill_ratio is {ledger.mutant_kill_ratio} but the policy says {ratio}",
            _at("mutant_kill_ratio"),
        )
    operators = len(operator_mutants(ledger.mutants))
    accepted = _accepted_budgets(ratio, operators)
    if ledger.mutant_budget not in accepted:
        yield Hit(
            f"mutant_budget is {ledger.mutant_budget} but ceil({ratio} x "
            f"{operators} operator mutants) is {min(accepted)}",
            _at("mutant_budget"),
        )


def planted_mismatch(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """mutants_planted must be the number of mutants listed, each listed once."""
    if ledger.mutants_planted != len(ledger.mutants):
        yield Hit(
            f"mutants_planted is {ledger.mutants_planted} but {len(ledger.mutants)} are listed",
            _at("mutants_planted"),
        )
    ids = [m.id for m in ledger.mutants]
    for mutant_id in duplicates(ids):
        yield Hit(f"mutant {mutant_id} is listed more than once", _at("mutants"))


def mutant_tally(mutants: tuple[Mutant, ...]) -> str:
    """`2 killed by a property, 1 timeout counted as detected, 1 killed by a unit test
    (tests/t.py::test_x), 1 survived`: every operator mutant in exactly one group, unit killers by
    name (reverts are told by `revert_tally`)."""
    groups: dict[str, list[Mutant]] = {}
    for m in operator_mutants(mutants):
        if m.status is MutantStatus.KILLED:
            key = "killed by a property" if m.kill_kind is KillKind.PROPERTY else "unit"
        elif m.detected:
            key = f"{m.status} counted as detected"
        else:
            key = str(m.status).replace("_", " ")
        groups.setdefault(key, []).append(m)
    parts = []
    first = ["killed by a property", "timeout counted as detected", "memory counted as detected"]
    keys = [k for k in first if k in groups] + sorted(k for k in groups if k not in first)
    for key in keys:
        members = groups[key]
        if key == "unit":
            names = ", ".join(sorted({str(m.killed_by) for m in members}))
            parts.append(f"{len(members)} killed by a unit test only ({names})")
        else:
            parts.append(f"{len(members)} {key}")
    return ", ".join(parts) if parts else "none planted"


def killed_mismatch(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """killed_mutants must count exactly the mutants killed by a property or counted as detected."""
    void = voided_killers(ledger.canaries)
    counted = sum(1 for m in ledger.mutants if counts_as_detected(m, void))
    if ledger.killed_mutants != counted:
        yield Hit(
            f"killed_mutants is {ledger.killed_mutants} but {counted} mutants are listed as "
            "killed by a property or detected",
            _at("killed_mutants"),
        )


def mutant_record(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A kill names its killer and its kind; a mutant that was not killed names neither."""
    for m in ledger.mutants:
        where = Location(m.path, line=m.line, note=m.id)
        if m.status is MutantStatus.KILLED and (m.killed_by is None or m.kill_kind is None):
            yield Hit(f"mutant {m.id} is killed but names no killer or kill kind", where)
        elif m.status is not MutantStatus.KILLED and (
            m.killed_by is not None or m.kill_kind is not None
        ):
            yield Hit(f"mutant {m.id} is {m.status} but names a killer", where)
        if m.detected and m.status not in (MutantStatus.TIMEOUT, MutantStatus.MEMORY):
            yield Hit(f"mutant {m.id} is {m.status} but marked detected", where)


def too_many_mutants(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """More mutants than the policy allows (max_mutants, raised to min_mutants_per_function for
    every function the ledger's mutants name): the run was not the one the policy describes."""
    props = ctx.policy.properties
    operators = operator_mutants(ledger.mutants)
    cap = mutant_cap(props.max_mutants, props.min_mutants_per_function, operators)
    if len(operators) > cap:
        why = "" if cap == props.max_mutants else " (raised by min_mutants_per_function)"
        yield Hit(
            f"{len(operators)} operator mutants planted, over the policy's cap {cap}{why}",
            _at("mutants_planted"),
        )


def mutant_cap(max_mutants: int, floor: int, mutants: Iterable[Mutant]) -> int:
    """The most mutants a plan may hold: the cap, or every named function's floor if larger (the
    planter takes each changed function's first `floor` past the cap)."""
    functions = {(m.path, m.function) for m in mutants}
    return max(max_mutants, floor * len(functions))


_BASE_OK = frozenset({"passed", "skipped"})
_FAILED = frozenset({"failed", "error"})


def pre_existing(ledger: PropertyLedger, ctx: RuleContext) -> dict[str, BaseRecheck]:
    """The base tests whose failure at head the ledger shows failing the same way on the base's
    own code in at least `authorship.min_replays` runs: failures that pre-date the diff. A recheck
    that does not hold up (fewer runs, a run that did not fail) excuses nothing."""
    runs = ctx.policy.authorship.min_replays
    return {
        r.node_id: r
        for r in ledger.base_rechecks
        if r.verdict == "pre-existing"
        and len(r.base_outcomes) >= runs
        and all(o in _FAILED for o in r.base_outcomes)
    }


def base_test_failed(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A test of the merge base does not pass against the head's code (SPEC 9: the trusted oracle),
    unless it fails the same way on the base's own code (`property-base-test-pre-existing`)."""
    yield from base_failures(ledger, ctx, ledger.base_tests)


def base_failures(
    ledger: PropertyLedger, ctx: RuleContext, runs: Iterable[BaseTestRun]
) -> Iterator[Hit]:
    """`base_test_failed` over the base test runs `runs` (a column may judge fewer of them)."""
    # in coverage-map mode no base test may reach the changed functions (the ledger's `baseline`
    # says so); in full mode every base test file must have run
    if ledger.base_test_files and not ledger.base_tests and ledger.baseline.mode == "full":
        yield Hit(
            f"the base has {ledger.base_test_files} test file(s) but none of their tests ran at head",
            _at("base_tests"),
        )
    excused = pre_existing(ledger, ctx)
    rechecks = {r.node_id: r for r in ledger.base_rechecks}
    for run in runs:
        if run.outcome in _BASE_OK or (run.outcome in _FAILED and run.node_id in excused):
            continue
        restored = " (restored: the diff changed or deleted it)" if run.restored else ""
        detail = f": {run.detail}" if run.detail else ""
        recheck = rechecks.get(run.node_id)
        at_base = f"; at base: {recheck.verdict} ({recheck.reason})" if recheck else ""
        yield Hit(
            f"{run.node_id}: {run.outcome} at head{restored}{detail}{at_base}", _at("base_tests")
        )


def base_test_pre_existing(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A base test fails at head and fails the same way on the base's own code: not the diff's
    failure, but no evidence either; shown so that it is fixed on the default branch."""
    excused = pre_existing(ledger, ctx)
    for run in ledger.base_tests:
        recheck = excused.get(run.node_id)
        if recheck is not None and run.outcome in _FAILED:
            detail = f": {run.detail}" if run.detail else ""
            yield Hit(
                f"{run.node_id}: {run.outcome} at head{detail}; {recheck.reason}",
                _at("base_rechecks"),
            )


def base_test_changed(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """An agent diff changed, removed or narrowed a test of the merge base (the trusted oracle)."""
    for change in ledger.base_test_changes:
        where = change.test or f"{change.path}:{change.line}"
        base, head = differing_lines(change.base, change.head)
        shown = "".join(
            f"; {side}: {text!r}" for side, text in (("base", base), ("head", head)) if text
        )
        yield Hit(f"{where}: {change.what}{shown}", Location(change.path, line=change.line))


def differing_lines(base: str, head: str) -> tuple[str, str]:
    """The first line where two excerpts differ, on each side ("" where a side has none there),
    stripped and bounded: what actually changed, never two identical lines."""
    base_lines = [line.strip() for line in base.splitlines() if line.strip()]
    head_lines = [line.strip() for line in head.splitlines() if line.strip()]
    for n in range(max(len(base_lines), len(head_lines))):
        left = base_lines[n] if n < len(base_lines) else ""
        right = head_lines[n] if n < len(head_lines) else ""
        if left != right:
            return left[:120], right[:120]
    return "", ""


def max_examples_cut(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """An agent's property runs fewer examples than the policy asks (its own settings or profile)."""
    floor = ctx.policy.properties.max_examples
    for prop in ledger.properties:
        if prop.max_examples_cut and not prop.generates:
            yield Hit(
                f"{prop.node_id}: Hypothesis's generate phase is off (its phases): only its "
                "@example inputs run, no generated one",
                _at("properties"),
            )
        elif prop.max_examples_cut:
            yield Hit(
                f"{prop.node_id}: max_examples is {prop.max_examples}, the policy asks {floor}",
                _at("properties"),
            )


def mutant_draw_pinned(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """The mutants were planted with a fixed draw: a diff could compute which it must survive."""
    if ledger.mutant_draw_pinned:
        yield Hit(
            f"the mutants were drawn with the fixed mutant_draw {ledger.mutant_draw} "
            "(policy properties.mutant_draw or --mutant-draw), not a secret of the run",
            _at("mutant_draw"),
        )


def unmutated_change(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """An agent diff changed executable code where no mutant could be planted: no evidence."""
    if ctx.authorship is not AuthorKind.AGENT:
        return
    for gap in ledger.unmutated:
        yield Hit(f"{gap.path}:{gap.line}: {gap.what}", Location(gap.path, line=gap.line))


def function_budget(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """Each changed function meets the kill ratio on its own mutants (kills by a property, and
    timeouts counted as detected): trivial helpers added to dilute one overall ratio cannot carry a
    function whose mutants survive."""
    ratio = ctx.policy.properties.mutant_kill_ratio
    groups: dict[tuple[str, str], list[bool]] = {}
    void = voided_killers(ledger.canaries)
    for mutant in operator_mutants(ledger.mutants):
        killed = counts_as_detected(mutant, void)
        groups.setdefault((mutant.path, mutant.function), []).append(killed)
    for (path, function), kills in sorted(groups.items()):
        needed = required_mutant_budget(ratio, len(kills))
        if sum(kills) < needed:
            yield Hit(
                f"{path}: {function}: {sum(kills)} of {len(kills)} mutants killed by a property, "
                f"needs {needed}",
                _at("mutants"),
            )


def canary_killed(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A test told a canary (an edit that keeps the code's behaviour) from the original: it tests
    the code's text, not its behaviour, so its kills are void and the lane fails."""
    control = ledger.effective_settings.get("control_problem")
    for c in ledger.canaries:
        # with a failed control every job is `error`: that is the budget's message, not a canary's
        if not canary_hit(c) or (control and c.status is MutantStatus.ERROR):
            continue
        if c.killed_by:
            what = f"{c.killed_by} failed on"
            why = (
                "its outcome changed although the code's behaviour did not: it reads the code's "
                "text (the source, its byte code or a hash of it) or its outcome varies from run "
                "to run (unseeded randomness, the clock, test order); its kills are void"
            )
        else:
            what = f"the tests ended {str(c.status).replace('_', ' ')} on"
            why = "a behaviour-preserving edit must leave every test passing"
        yield Hit(
            f"{what} canary {c.id} ({c.operator}: {_short(c.original)!r} -> "
            f"{_short(c.replacement)!r}), an edit that keeps the behaviour: {why}",
            Location(c.path, line=c.line, note=c.id),
        )
    ids = [c.id for c in ledger.canaries]
    for canary_id in duplicates(ids):
        yield Hit(f"canary {canary_id} is listed more than once", _at("canaries"))
    for canary_id in sorted(set(ids) & {m.id for m in ledger.mutants}):
        yield Hit(f"{canary_id} is listed as a mutant and as a canary", _at("canaries"))


def _short(text: str, limit: int = 60) -> str:
    """The first line of an edit's text, cut to `limit` characters."""
    first = text.splitlines()[0] if text else ""
    return first if len(first) <= limit and first == text else first[:limit] + "..."


def oracle_not_reached(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A new test passed the static oracle check, ran, and never reached that oracle call at run
    time (it returned first, or called it under a condition never true, or the oracle was replaced)."""
    if not ctx.policy.properties.fail_on_missing_oracle:
        return
    for prop in ledger.properties:
        if prop.passed_oracle_check and prop.cases_run > 0 and prop.oracle_reached == 0:
            yield Hit(
                f"{prop.node_id}: ran {prop.cases_run} case(s) and never reached its oracle call "
                "(no call of a trusted oracle from the checked line at run time)",
                _at("properties"),
            )


def no_code_reached(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A new test reached its oracle but never called the project's own code: whatever it claims
    to test, it tests nothing of this repository, and with no changed code (a test-only diff) no
    mutant would ever say so."""
    if not ctx.policy.properties.fail_on_missing_oracle:
        return
    for prop in ledger.properties:
        if prop.passed_oracle_check and prop.oracle_reached > 0 and prop.code_reached == 0:
            yield Hit(
                f"{prop.node_id}: ran {prop.cases_run} case(s) and never called the repository's "
                "own code (only the oracle, the standard library or installed packages)",
                _at("properties"),
            )


# --- revert mutants and the behaviour diff (issue 42) -----------------------------------------------

# a revert "killed" only because the base cannot take the call the new test makes: the base lacks a
# parameter, a name or an attribute the test uses. That shows nothing about the behaviour the tests
# pin; the change is judged at the call shapes both versions accept (the behaviour diff)
_CALL_SHAPE = re.compile(
    r"^(?:collection: )?(?:"
    r"TypeError: .*(?:unexpected keyword argument|positional argument|required positional argument"
    r"|required keyword-only argument|multiple values for argument)"
    r"|(?:ImportError|ModuleNotFoundError): cannot import name"
    r"|AttributeError: .*has no attribute"
    r")"
)
# a revert whose base code names something the head removed does not run in the head's context
_NOT_IN_HEAD = re.compile(r"^(?:collection: )?(?:NameError|UnboundLocalError): ")
SHOWN_DIFFERENCES = 3


def is_revert(m: Mutant) -> bool:
    """A revert mutant (the base's code planted into the head), never an operator's."""
    return m.operator in REVERT_OPERATORS


def operator_mutants(mutants: Iterable[Mutant]) -> list[Mutant]:
    """The operator mutants of a ledger: what the budgets and the per-function ratio count."""
    return [m for m in mutants if not is_revert(m)]


def revert_outcome(m: Mutant, void: frozenset[str]) -> str:
    """What one revert shows: `killed` (a test told the base from the head), `call-shape` (killed
    only by a call the base cannot take), `not-in-head` (its base code names what the head removed),
    `void` (its killer also killed a canary), else `alive` (survived, no tests, not detected, error)."""
    if m.status is MutantStatus.KILLED:
        if m.killed_by in void:
            return "void"
        if _NOT_IN_HEAD.match(m.detail):
            return "not-in-head"
        if _CALL_SHAPE.match(m.detail):
            return "call-shape"
        return "killed"
    if m.detected and m.status in (MutantStatus.TIMEOUT, MutantStatus.MEMORY):
        return "killed"
    return "alive"


def revert_verdict(
    change: ChangeEvidence, mutants: dict[str, Mutant], void: frozenset[str]
) -> tuple[str, str | None]:
    """The verdict of one changed function's reverts, and the test that pinned it:

    - `pinned`: its whole revert (or, for module-level code, every revert) was killed, and so was
      every hunk's revert that runs in the head's context;
    - `partly-pinned`: the whole revert was killed, but a hunk's revert alone was not: no test tells
      that hunk from the base;
    - `call-shape`: killed only by calls the base cannot take (judged at the shapes both accept);
    - `not-killed`: no test told its revert from the head;
    - `not-run`: no revert could run in the head's context (none compiles, or the base names what
      the head removed)."""
    outcomes = [
        (mutants[i], revert_outcome(mutants[i], void)) for i in change.reverts if i in mutants
    ]
    whole = [(m, o) for m, o in outcomes if m.operator != "revert-hunk"]
    parts = [(m, o) for m, o in outcomes if m.operator == "revert-hunk"]
    runs = [(m, o) for m, o in whole if o != "not-in-head"]
    if not runs:
        return "not-run", None
    killer = next((m.killed_by for m, o in runs if o == "killed"), None)
    if all(o == "killed" for _, o in runs):
        if any(o in ("alive", "void", "call-shape") for _, o in parts):
            return "partly-pinned", killer
        return "pinned", killer
    if any(o == "call-shape" for _, o in runs) and not any(o == "alive" for _, o in runs):
        return "call-shape", None
    return "not-killed", None


def _changes(ledger: PropertyLedger) -> Iterator[tuple[ChangeEvidence, str, str | None]]:
    """Every changed function with its revert verdict, as the scorer derives it; a `call-shape`
    function's behaviour is the one at the call shapes both versions accept (`_at_shared_shapes`)."""
    void = voided_killers(ledger.canaries)
    mutants = {m.id: m for m in ledger.mutants}
    for change in ledger.changed_functions:
        verdict, killer = revert_verdict(change, mutants, void)
        yield (_at_shared_shapes(change) if verdict == "call-shape" else change), verdict, killer


_BASE_REJECTS = "raises TypeError"


def _at_shared_shapes(change: ChangeEvidence) -> ChangeEvidence:
    """A `call-shape` change judged where both versions take the call: a difference whose base side
    is a TypeError is the base refusing the call shape, not a behaviour. Left with none, the change
    was compared at the base's shapes only when the behaviour diff drew inputs from the base's
    signature (its `hypothesis` source); else it was not compared there at all."""
    kept = tuple(d for d in change.differences if not d.base.startswith(_BASE_REJECTS))
    if kept or not change.differences:
        verdict = "differs" if kept else change.behaviour
        return dataclasses.replace(change, behaviour=verdict, differences=kept)
    drawn = sum(s.count for s in change.input_sources if s.source == "hypothesis")
    if drawn:
        return dataclasses.replace(change, behaviour="same", differences=())
    return dataclasses.replace(
        change,
        behaviour="not-compared",
        differences=(),
        behaviour_reason="base and head were compared only at calls the base cannot take (a "
        "parameter or name it lacks); none at the call shapes existing callers use",
    )


def _where(change: ChangeEvidence) -> str:
    moved = (
        f" (at base {change.base_path}::{change.base_qualname})"
        if (change.base_path, change.base_qualname) != (change.path, change.qualname)
        else ""
    )
    return f"{change.path}::{change.qualname}{moved}"


def _examples(change: ChangeEvidence) -> str:
    shown = "; ".join(
        f"{d.call}: base {d.base}, head {d.head}" for d in change.differences[:SHOWN_DIFFERENCES]
    )
    return shown or "no example recorded"


def _unpinned_why(verdict: str) -> str:
    return {
        "not-killed": "no test tells its revert (the base's version) from the head",
        "partly-pinned": "a hunk's revert alone survived: no test tells that hunk from the base",
        "call-shape": (
            "its revert was killed only by calls the base cannot take (a new parameter or name), "
            "judged at the call shapes both versions accept"
        ),
        "not-run": "no revert of it runs in the head's context",
    }.get(verdict, verdict)


def change_untested(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A changed function whose revert no test kills, while the behaviour diff found inputs where
    base and head disagree: the change is a behaviour change no test pins (or a hunk of it is)."""
    for change, verdict, _ in _changes(ledger):
        if verdict == "pinned":
            continue
        if change.behaviour == "differs" or verdict == "partly-pinned":
            yield Hit(
                f"{_where(change)}: {_unpinned_why(verdict)}, and base and head differ: "
                f"{_examples(change)}",
                Location(change.path, note=change.qualname),
            )


def _not_compared(ledger: PropertyLedger) -> Iterator[Hit]:
    for change, verdict, _ in _changes(ledger):
        if verdict in ("pinned", "partly-pinned") or change.behaviour != "not-compared":
            continue
        reason = change.behaviour_reason or "no reason recorded"
        yield Hit(
            f"{_where(change)}: {_unpinned_why(verdict)}, and the behaviour diff did not compare "
            f"it ({reason})",
            Location(change.path, note=change.qualname),
        )


def change_not_compared(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A changed function that no test pins and that the behaviour diff could not compare:
    nothing shows what the change does (fails closed for an agent; a warning in Lane A, where a
    reviewer reads the change)."""
    yield from _not_compared(ledger)


def _pinned_changes(ledger: PropertyLedger) -> Iterator[Hit]:
    for change, verdict, killer in _changes(ledger):
        if verdict == "pinned" and change.behaviour == "differs":
            yield Hit(
                f"{_where(change)}: behaviour changed, pinned by {killer}: {_examples(change)}",
                Location(change.path, note=change.qualname),
            )


def behaviour_changed(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """A changed function whose new behaviour a test pins: no fail, but the differences are shown,
    since the tests may encode the author's own misunderstanding."""
    if not ctx.policy.properties.behaviour_changes_need_approval:
        yield from _pinned_changes(ledger)


def behaviour_change_approval(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """With `properties.behaviour_changes_need_approval`, an agent diff that changes the behaviour of
    a function that exists at base needs a human (a human-authored PR)."""
    if ctx.policy.properties.behaviour_changes_need_approval:
        if ctx.authorship is AuthorKind.AGENT:
            yield from _pinned_changes(ledger)


def change_record(ledger: PropertyLedger, ctx: RuleContext) -> Iterator[Hit]:
    """`changed_functions` must agree with the mutants: every revert listed once, by a function
    that names it, and each function's recorded verdict the one its reverts give."""
    mutants = {m.id: m for m in ledger.mutants}
    owned: list[str] = []
    for change, verdict, _ in _changes(ledger):
        owned.extend(change.reverts)
        for ident in change.reverts:
            m = mutants.get(ident)
            if m is None or not is_revert(m):
                yield Hit(
                    f"{_where(change)}: revert {ident} is not a listed revert mutant",
                    _at("changed_functions"),
                )
        if change.revert_verdict != verdict:
            yield Hit(
                f"{_where(change)}: revert_verdict is {change.revert_verdict!r} but its reverts "
                f"give {verdict!r}",
                _at("changed_functions"),
            )
    for ident in duplicates(owned):
        yield Hit(
            f"revert {ident} is listed by more than one changed function", _at("changed_functions")
        )
    for m in ledger.mutants:
        if is_revert(m) and m.id not in owned:
            yield Hit(f"revert {m.id} belongs to no changed function", _at("changed_functions"))
