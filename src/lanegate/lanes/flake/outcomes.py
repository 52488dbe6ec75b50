"""From the plugin's lines of every replay to per-test outcomes, and what a disagreement says.

Fail closed: a test that a replay should have run (every repeat the plan asks for) but that reported
nothing is `missing` (or `timeout` when the wall clock ended the replay); a run reported twice, a
process left behind, or a forged line turns the run into `error`. Any outcome other than passed,
failed or skipped, or any two different outcomes, makes a test non-deterministic.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lanegate.lanes.flake.budget import BatchPlan, RunCost
from lanegate.lanes.flake.dimensions import run_pins
from lanegate.lanes.flake.execute import ReplayRun
from lanegate.lanes.flake.plan import Plan, ReplayPin
from lanegate.lanes.flake.select import Selection
from lanegate.ledgers.models import Dimension, FlakeTest, Outcome, ReplayOutcome, RunBatch
from lanegate.scoring.flake_power import batch_kinds, culprits, judged, judged_kinds, power_of
from lanegate.scoring.state_leak import state_leak

STABLE_OUTCOMES = frozenset({Outcome.PASSED, Outcome.FAILED, Outcome.SKIPPED})


def base_id(node_id: str) -> str:
    """The node id without its parametrization."""
    return node_id.split("[", 1)[0]


@dataclass(frozen=True, slots=True)
class _Seen:
    outcome: Outcome
    seconds: float
    detail: str


def _belongs(node_id: str, selected: frozenset[str]) -> bool:
    base = base_id(node_id)
    if node_id in selected or base in selected:
        return True
    # A module run whole (a bare path in `selected`) owns every item pytest finds in it, even one the
    # AST scan did not see (a unittest class, a generated test).
    return base.split("::", 1)[0] in selected


_BatchKey = tuple[str, str]  # (node id, dimension)


def _count(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _batch_line(line: dict[str, object]) -> tuple[_BatchKey, dict[str, object]] | None:
    node_id, dimension = line.get("node_id"), line.get("dimension")
    if not isinstance(node_id, str) or not isinstance(dimension, str):
        return None
    return (node_id, dimension), line


def _replay_results(
    run: ReplayRun, selected: frozenset[str]
) -> tuple[dict[tuple[str, int], _Seen], set[str], str | None, dict[_BatchKey, dict[str, object]]]:
    """(outcomes by (node id, repeat), node ids the replay collected, why every outcome of the replay
    is an error: a stray process no test was blamed for, or lines in the result file without the
    nonce; the batch lines by (node id, dimension), a leftover process blamed on a batch marked)."""
    seen: dict[tuple[str, int], _Seen] = {}
    collected: set[str] = set()
    batches: dict[_BatchKey, dict[str, object]] = {}
    blamed = False
    for line in run.lines:
        kind = line.get("kind")
        if kind == "batch":
            found = _batch_line(line)
            if found is not None:
                batch_key, batch_value = found
                batches[batch_key] = {"duplicate": True} if batch_key in batches else batch_value
            continue
        if kind == "leftover" and isinstance(line.get("repeat"), str):
            node_id = line.get("node_id")
            if isinstance(node_id, str):
                blamed = True
                batch_key = (node_id, str(line.get("repeat")))
                batches[batch_key] = {**batches.get(batch_key, {}), "leftover": line.get("pid")}
            continue
        if kind == "collected":
            for entry in line.get("runs", []):
                if isinstance(entry, list) and entry and isinstance(entry[0], str):
                    if _belongs(entry[0], selected):
                        collected.add(entry[0])
        elif kind == "outcome":
            node_id, repeat = line.get("node_id"), line.get("repeat")
            if not isinstance(node_id, str) or not isinstance(repeat, int):
                continue
            if not _belongs(node_id, selected):
                continue
            collected.add(node_id)
            key = (node_id, repeat)
            try:
                outcome = Outcome(str(line.get("outcome")))
            except ValueError:
                outcome = Outcome.ERROR
            seconds = line.get("seconds")
            value = _Seen(
                outcome,
                float(seconds) if isinstance(seconds, int | float) and seconds >= 0 else 0.0,
                str(line.get("detail", ""))[:400],
            )
            if key in seen:
                value = _Seen(Outcome.ERROR, value.seconds, "reported twice in one run (a rerun?)")
            seen[key] = value
        elif kind == "leftover":
            node_id, repeat = line.get("node_id"), line.get("repeat")
            detail = f"left process {line.get('pid')} running after the session ended"
            if isinstance(node_id, str) and isinstance(repeat, int):
                blamed = True
                old = seen.get((node_id, repeat))
                seen[(node_id, repeat)] = _Seen(Outcome.ERROR, old.seconds if old else 0.0, detail)
    blanket = None
    if run.forged_lines:
        blanket = f"{run.forged_lines} line(s) in the result file were not written by lanegate"
    elif run.stray_processes and not blamed:
        blanket = "a process was left behind in the replay's process group"
    return seen, collected, blanket, batches


def measured_costs(run: ReplayRun, selection: Selection) -> list[RunCost]:
    """What replay 1 measured of each test it ran (its fastest run), for the budget planner."""
    # a test's risks by its id and by its function's (a selection may hold `t[a]` or `t`): a
    # parametrized test looked up only by its function lost every risk dimension
    risks: dict[str, frozenset[str]] = {}
    for t in selection.tests:
        risks[t.node_id] = risks.get(t.node_id, frozenset()) | t.risks
        risks[base_id(t.node_id)] = risks.get(base_id(t.node_id), frozenset()) | t.risks
    touched = selection.touched_ids
    best: dict[str, RunCost] = {}
    selected = frozenset(selection.node_ids) | frozenset(
        t.path for t in selection.tests if t.whole_module
    )
    for line in run.lines:
        node_id = line.get("node_id")
        if line.get("kind") != "outcome" or not isinstance(node_id, str):
            continue
        if not _belongs(node_id, selected):
            continue
        fast = line.get("fast") is True
        raw = line.get("call_seconds" if fast else "seconds")
        seconds = float(raw) if isinstance(raw, int | float) and raw >= 0 else 1.0
        raw_cpu = line.get("call_cpu_seconds" if fast else "cpu_seconds")
        cpu = float(raw_cpu) if isinstance(raw_cpu, int | float) and raw_cpu >= 0 else None
        cost = RunCost(
            node_id,
            seconds,
            fast,
            risks.get(node_id, risks.get(base_id(node_id), frozenset())),
            node_id in touched
            or base_id(node_id) in touched
            or base_id(node_id).split("::", 1)[0] in touched,
            cpu,
            fresh=str(line.get("fresh") or "") if line.get("fresh") in ("light", "heavy") else "",
        )
        if node_id not in best or cost.seconds < best[node_id].seconds:
            best[node_id] = cost
    return list(best.values())


def _missing(run: ReplayRun) -> tuple[Outcome, str]:
    if run.timed_out:
        return Outcome.TIMEOUT, "the replay hit its wall clock before this test reported"
    return Outcome.MISSING, f"no outcome reported (pytest exit code {run.exit_code})"


Details = dict[tuple[str, int, int], str]


def assemble(
    selection: Selection, plan: Plan, runs: Sequence[ReplayRun]
) -> tuple[tuple[FlakeTest, ...], Details]:
    """Every selected test (and every parametrized item of it) with one outcome per run per replay,
    and why each run that did not pass went as it did ((node id, replay, repeat) -> one line)."""
    selected = frozenset(selection.node_ids) | frozenset(
        t.path for t in selection.tests if t.whole_module
    )
    touched = selection.touched_ids | frozenset(
        path
        for path in {t.path for t in selection.tests}
        if all(t.whole_module and t.touched for t in selection.tests if t.path == path)
    )
    per_replay = [_replay_results(run, selected) for run in runs]
    node_ids: list[str] = []
    for _, collected, _, _ in per_replay:
        for node_id in sorted(collected):
            if node_id not in node_ids:
                node_ids.append(node_id)
    # a selected id is covered by its own items, by its parametrized items (`t[a]` covers `t`) and,
    # for a whole module or class, by the items inside it; only an id no run collected is added
    covered = {*node_ids, *(base_id(n) for n in node_ids)} | {
        s for s in selected if any(n.startswith(s + "::") for n in node_ids)
    }
    node_ids.extend(s for s in selection.node_ids if s not in covered)
    order = {s: i for i, s in enumerate(selection.node_ids)}
    node_ids.sort(key=lambda n: (order.get(base_id(n), len(order)), n))
    pins = {pin.replay: pin for pin in plan.pins}
    raw: list[FlakeTest] = []
    details: Details = {}
    for node_id in node_ids:
        outcomes: list[ReplayOutcome] = []
        batches: list[RunBatch] = []
        for run, (seen, _, blanket, reported) in zip(runs, per_replay, strict=True):
            pin = pins[run.replay]
            for repeat in range(plan.runs_of(node_id, pin)):
                got = seen.get((node_id, repeat))
                if got is None:
                    outcome, detail = _missing(run)
                    got = _Seen(outcome, 0.0, detail)
                elif blanket is not None and got.outcome is not Outcome.ERROR:
                    got = _Seen(Outcome.ERROR, got.seconds, blanket)
                outcomes.append(_outcome(pin, repeat, got))
                if got.detail:
                    details[(node_id, pin.replay, repeat)] = got.detail
            for planned in plan.batches_of(run.replay):
                if planned.node_id == node_id:
                    line = reported.get((node_id, str(planned.dimension)))
                    batches.append(_batch(planned, line, run, blanket))
        raw.append(
            FlakeTest(
                node_id=node_id,
                touched_by_diff=base_id(node_id) in touched
                or base_id(node_id).split("::", 1)[0] in touched,
                replays=tuple(outcomes),
                batches=tuple(batches),
            )
        )
    flagged = culprits(raw)
    return tuple(_verdict(test, judged(test, flagged), plan, details) for test in raw), details


def _verdict(test: FlakeTest, view: FlakeTest, plan: Plan, details: Details) -> FlakeTest:
    """`test` as reported (every count kept) with the verdict, exposure and power of `view`, the
    test as judged (failures after a flagged test's failure in the process set aside)."""
    base_kinds = {o.outcome for o in view.replays}
    kinds = base_kinds | {k for b in view.batches for k in judged_kinds(b, base_kinds)}
    deterministic = len(kinds) == 1 and kinds <= STABLE_OUTCOMES
    view = dataclasses.replace(view, deterministic=deterministic)
    exposed, reproduce = (None, None) if deterministic else exposure(view, plan, details)
    leak = None if deterministic else state_leak(view)
    if leak is not None:
        exposed, reproduce = Dimension.STATE_LEAK, leak.describe()
    if deterministic and kinds == {Outcome.FAILED}:
        differs = fails_differently(view, details)
        if differs is not None:
            deterministic = False
            exposed, reproduce = Dimension.HASH_SEED, differs
    return dataclasses.replace(
        test,
        deterministic=deterministic,
        power=power_of(view),
        exposed_by=exposed,
        reproduce=reproduce,
    )


_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_TMP = re.compile(r"/[^\s'\"]*lanegate-flake-[^\s'\"]*")


def _normalized(detail: str) -> str:
    """A failure's one-line cause without what differs between any two processes (addresses,
    the replay's private temporary directory)."""
    return _TMP.sub("<tmp>", _ADDRESS.sub("0x?", detail))


def fails_differently(test: FlakeTest, details: Details) -> str | None:
    """For a test that fails in every run: when every run of one replay fails the same way but
    two replays fail differently (another set order in the message, say), the runs do not agree
    and the test is non-deterministic. The odd run and both causes, or None."""
    per_replay: dict[int, set[str]] = {}
    for o in test.replays:
        cause = _normalized(details.get((test.node_id, o.replay, o.repeat), ""))
        per_replay.setdefault(o.replay, set()).add(cause)
    if any(len(causes) != 1 for causes in per_replay.values()) or len(per_replay) < 2:
        return None
    first_replay, *others = sorted(per_replay)
    first = next(iter(per_replay[first_replay]))
    odd = next((r for r in others if per_replay[r] != {first}), None)
    if odd is None:
        return None
    run = next(o for o in test.replays if o.replay == odd)
    return (
        f"replay {odd} run 1 ({_pins(run)}) failed with {next(iter(per_replay[odd]))!r}; "
        f"replay {first_replay} with {first!r}"
    )[:2000]


def _node(value: object) -> str | None:
    return value[:2000] if isinstance(value, str) and value else None


def _first_run(first: object, outcome: str) -> int | None:
    if isinstance(first, dict):
        value = first.get(outcome)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
    return None


_SEQUENCE = re.compile(r"[pfesm]{0,1000}")


def _sequence(value: object, counts: dict[str, int]) -> str:
    """A batch line's run-order outcomes when they agree with its counts, else "" (unknown)."""
    if not isinstance(value, str) or _SEQUENCE.fullmatch(value) is None:
        return ""
    letters = {"passed": "p", "failed": "f", "error": "e", "skipped": "s"}
    if any(value.count(letter) != counts.get(name, 0) for name, letter in letters.items()):
        return ""
    return value


def _batch(
    planned: BatchPlan, line: dict[str, object] | None, run: ReplayRun, blanket: str | None
) -> RunBatch:
    """The ledger record of one planned batch from its line (fail closed: a missing line, a short
    count, a duplicate line, a leftover process or a forged result file)."""
    base = RunBatch(replay=planned.replay, dimension=planned.dimension, runs=planned.runs)
    if line is None or "counts" not in line:
        if line is None:
            return dataclasses.replace(base, missing=planned.runs, detail=_missing(run)[1])
        reason = "reported twice in one run (a rerun?)"
        if "leftover" in line:
            reason = f"left process {line['leftover']} running after the session ended"
        return dataclasses.replace(base, error=planned.runs, detail=reason)
    counts = line.get("counts")
    got = (
        {k: _count(counts.get(k)) for k in ("passed", "failed", "error", "skipped")}
        if isinstance(counts, dict)
        else {}
    )
    reported = sum(got.values())
    seconds = line.get("seconds")
    record = dataclasses.replace(
        base,
        passed=got.get("passed", 0),
        failed=got.get("failed", 0),
        error=got.get("error", 0),
        skipped=got.get("skipped", 0),
        missing=max(0, planned.runs - reported),
        first_failed_run=_first_run(line.get("first"), "failed"),
        first_passed_run=_first_run(line.get("first"), "passed"),
        sequence=_sequence(line.get("sequence"), got),
        seconds=round(float(seconds), 6)
        if isinstance(seconds, int | float) and seconds >= 0
        else 0.0,
        detail=str(line.get("detail", ""))[:500],
        after_failure_of=_node(line.get("after_failure_of")),
    )
    if reported > planned.runs:
        record = dataclasses.replace(
            record,
            error=reported,
            passed=0,
            failed=0,
            skipped=0,
            sequence="",
            detail="more runs than planned",
        )
    why: str | None = blanket
    if why is None and "leftover" in line:
        why = f"left process {line['leftover']} running after the session ended"
    if why is not None:
        record = dataclasses.replace(
            record,
            error=planned.runs - record.missing,
            passed=0,
            failed=0,
            skipped=0,
            sequence="",
            detail=why,
        )
    return record


def _run_of(batch: RunBatch, odd_failed: bool) -> int:
    value = batch.first_failed_run if odd_failed else batch.first_passed_run
    return value if value is not None else 0


def exposure(test: FlakeTest, plan: Plan, details: Details) -> tuple[Dimension | None, str | None]:
    """The dimension that exposed a disagreement, and the exact run that shows it: a batch whose
    own runs disagree names its dimension; a second pass that disagrees with the first names the
    state left behind; otherwise the replays disagree, and the test's batch runs in the odd replay
    (run after the whole pass, in the same process) tell order (they went the other way) from hash
    seed (they went the same way)."""
    pins = {p.replay: p for p in plan.pins}
    for batch in test.batches:
        kinds = batch_kinds(batch)
        if len(kinds) > 1 or (kinds and not kinds <= STABLE_OUTCOMES):
            index = _run_of(batch, batch.failed > 0)  # the first failing run: the one to rerun
            base_random = pins[batch.replay].random_seed if batch.replay in pins else 0
            where = run_pins(batch.dimension, index, base_random).describe()
            return batch.dimension, f"replay {batch.replay}, {where}: {batch.detail}".strip()
    if not test.replays:
        return None, None
    first = test.replays[0]
    odd = next((o for o in test.replays if o.outcome is not first.outcome), None)
    if odd is None:  # every base run agrees: a batch disagreed with them
        base = {first.outcome}
        other = next((b for b in test.batches if judged_kinds(b, base) not in (set(), base)), None)
        if other is None:
            return None, None
        index = _run_of(other, other.failed > 0)
        base_random = pins[other.replay].random_seed if other.replay in pins else 0
        dimension = other.dimension
        if other.replay != first.replay and dimension in (Dimension.REPEAT, Dimension.ZONE):
            dimension = (
                Dimension.ORDER
            )  # every run of the batch, after the pass, went the other way
        where = run_pins(other.dimension, index, base_random).describe()
        return dimension, f"replay {other.replay}, {where}: {other.detail}".strip()
    why = details.get((test.node_id, odd.replay, odd.repeat), "")
    at = f"replay {odd.replay} run {odd.repeat + 1} ({_pins(odd)})" + (f": {why}" if why else "")
    if odd.replay == first.replay:
        return Dimension.SECOND_PASS, at
    if _privilege_decides(test, pins):
        return Dimension.PRIVILEGE, f"{at} (the replay kept root's file-permission override)"
    later = [
        b for b in test.batches if b.replay == odd.replay and b.dimension is not Dimension.HASH_SEED
    ]
    if later and all(batch_kinds(b) == {odd.outcome} for b in later):
        if not _one_seed_went_both_ways(test, pins):
            return Dimension.HASH_SEED, at
    return Dimension.ORDER, at


def _privilege_decides(test: FlakeTest, pins: dict[int, ReplayPin]) -> bool:
    """Whether every run of the privileged replays (base runs and batches) went one way and every
    run of the others the other way: the file-permission override decides the outcome."""
    inside: set[Outcome] = set()
    outside: set[Outcome] = set()
    for o in test.replays:
        pin = pins.get(o.replay)
        (inside if pin is not None and pin.privileged else outside).add(o.outcome)
    for b in test.batches:
        pin = pins.get(b.replay)
        (inside if pin is not None and pin.privileged else outside).update(batch_kinds(b))
    return len(inside) == 1 and len(outside) == 1 and inside != outside


# Batches that run under their replay's own hash seed, zone and clock: only what ran before them
# in the process (the pass, or nothing for the isolation run) and the random seed differ.
_SAME_SEED_BATCHES = frozenset({Dimension.ISOLATION, Dimension.REPEAT})


def _one_seed_went_both_ways(test: FlakeTest, pins: dict[int, ReplayPin]) -> bool:
    """Whether runs under one hash seed (base runs of replays that share it, and the isolation
    and repeat runs of a replay under its own seed) went both ways: then the hash seed does not
    decide the outcome, what ran before the test in its process does (a polluter's state
    outlasts the pass, so the batches after it agree with the polluted base run)."""
    by_seed: dict[int, set[Outcome]] = {}
    for o in test.replays:
        by_seed.setdefault(o.hash_seed, set()).add(o.outcome)
    for b in test.batches:
        if b.dimension in _SAME_SEED_BATCHES and b.replay in pins:
            by_seed.setdefault(pins[b.replay].hash_seed, set()).update(batch_kinds(b))
    return any(len(kinds & STABLE_OUTCOMES) > 1 for kinds in by_seed.values())


def _outcome(pin: ReplayPin, repeat: int, seen: _Seen) -> ReplayOutcome:
    return ReplayOutcome(
        replay=pin.replay,
        repeat=repeat,
        outcome=seen.outcome,
        seconds=round(seen.seconds, 6),
        hash_seed=pin.hash_seed,
        order=str(pin.order),
        order_seed=pin.order_seed,
        tz=pin.tz,
    )


def _pins(o: ReplayOutcome) -> str:
    seed = f", order_seed={o.order_seed}" if o.order_seed is not None else ""
    return f"PYTHONHASHSEED={o.hash_seed}, order={o.order}{seed}, TZ={o.tz}"


def describe_disagreement(test: FlakeTest, details: Details | None = None) -> str:
    """One line naming the test, the run that disagreed, its pins, and the run it disagreed with."""
    why = details or {}
    if not test.replays:
        return f"{test.node_id}: no replay ran it"
    counts: dict[str, int] = {}
    for o in test.replays:
        counts[o.outcome.value] = counts.get(o.outcome.value, 0) + 1
    summary = ", ".join(f"{k} x{v}" for k, v in sorted(counts.items()))
    for b in test.batches:
        for name, n in (("passed", b.passed), ("failed", b.failed), ("error", b.error)):
            if n:
                key = f"{name} x{n} in r{b.replay}.{b.dimension}"
                summary += f", {key}"
    exposed = (
        f"; exposed by {test.exposed_by}: {test.reproduce}"
        if test.exposed_by is not None and test.reproduce
        else ""
    )
    first = test.replays[0]
    odd = next((o for o in test.replays if o.outcome is not first.outcome), None)
    if odd is None:
        first_why = why.get((test.node_id, first.replay, first.repeat), "")
        detail = f": {first_why}" if first_why else ""
        every = "every base run" if test.batches else "every run"
        return f"{test.node_id}: {first.outcome.value} in {every}{detail}{exposed} [{summary}]"
    odd_why = why.get((test.node_id, odd.replay, odd.repeat), "")
    detail = f": {odd_why}" if odd_why else ""
    return (
        f"{test.node_id}: {odd.outcome.value} in replay {odd.replay} run {odd.repeat + 1} "
        f"({_pins(odd)}){detail}; but {first.outcome.value} in replay {first.replay} run "
        f"{first.repeat + 1} ({_pins(first)}){exposed} [{summary}]"
    )


def failing_everywhere(tests: Iterable[FlakeTest]) -> list[FlakeTest]:
    """Deterministic tests that failed in every run: stable, but not a pass either."""
    return [
        t for t in tests if t.deterministic and t.replays and t.replays[0].outcome is Outcome.FAILED
    ]
