"""From the plugin's lines of every replay to per-test outcomes, and what a disagreement says.

Fail closed: a test that a replay should have run (every repeat the plan asks for) but that reported
nothing is `missing` (or `timeout` when the wall clock ended the replay); a run reported twice, a
process left behind, or a forged line turns the run into `error`. Any outcome other than passed,
failed or skipped, or any two different outcomes, makes a test non-deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lanegate.lanes.flake.execute import ReplayRun
from lanegate.lanes.flake.plan import Plan, ReplayPin
from lanegate.lanes.flake.select import Selection
from lanegate.ledgers.models import FlakeTest, Outcome, ReplayOutcome

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
    if base in selected:
        return True
    # A module run whole (a bare path in `selected`) owns every item pytest finds in it, even one the
    # AST scan did not see (a unittest class, a generated test).
    return base.split("::", 1)[0] in selected


def _replay_results(
    run: ReplayRun, selected: frozenset[str]
) -> tuple[dict[tuple[str, int], _Seen], set[str], str | None]:
    """(outcomes by (node id, repeat), node ids the replay collected, why every outcome of the replay
    is an error: a stray process no test was blamed for, or lines in the result file without the
    nonce)."""
    seen: dict[tuple[str, int], _Seen] = {}
    collected: set[str] = set()
    blamed = False
    for line in run.lines:
        kind = line.get("kind")
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
    return seen, collected, blanket


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
    for _, collected, _ in per_replay:
        for node_id in sorted(collected):
            if node_id not in node_ids:
                node_ids.append(node_id)
    covered = {base_id(n) for n in node_ids} | {
        s for s in selected if any(n.startswith(s + "::") for n in node_ids)
    }
    node_ids.extend(s for s in selection.node_ids if s not in covered)
    order = {s: i for i, s in enumerate(selection.node_ids)}
    node_ids.sort(key=lambda n: (order.get(base_id(n), len(order)), n))
    pins = {pin.replay: pin for pin in plan.pins}
    tests: list[FlakeTest] = []
    details: Details = {}
    for node_id in node_ids:
        outcomes: list[ReplayOutcome] = []
        for run, (seen, _, blanket) in zip(runs, per_replay, strict=True):
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
        kinds = {o.outcome for o in outcomes}
        deterministic = len(kinds) == 1 and kinds <= STABLE_OUTCOMES
        tests.append(
            FlakeTest(
                node_id=node_id,
                deterministic=deterministic,
                touched_by_diff=base_id(node_id) in touched
                or base_id(node_id).split("::", 1)[0] in touched,
                replays=tuple(outcomes),
            )
        )
    return tuple(tests), details


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
    first = test.replays[0]
    odd = next((o for o in test.replays if o.outcome is not first.outcome), None)
    if odd is None:
        first_why = why.get((test.node_id, first.replay, first.repeat), "")
        detail = f": {first_why}" if first_why else ""
        return f"{test.node_id}: {first.outcome.value} in every run{detail} [{summary}]"
    odd_why = why.get((test.node_id, odd.replay, odd.repeat), "")
    detail = f": {odd_why}" if odd_why else ""
    return (
        f"{test.node_id}: {odd.outcome.value} in replay {odd.replay} run {odd.repeat + 1} "
        f"({_pins(odd)}){detail}; but {first.outcome.value} in replay {first.replay} run "
        f"{first.repeat + 1} ({_pins(first)}) [{summary}]"
    )


def failing_everywhere(tests: Iterable[FlakeTest]) -> list[FlakeTest]:
    """Deterministic tests that failed in every run: stable, but not a pass either."""
    return [
        t for t in tests if t.deterministic and t.replays and t.replays[0].outcome is Outcome.FAILED
    ]
