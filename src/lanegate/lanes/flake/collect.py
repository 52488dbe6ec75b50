"""pytest's own collection of the diff's test files, run the way a replay runs (same process
machinery, same disabled plugins, same clean environment), so the lanes select tests by node id."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lanegate.errors import RunnerError
from lanegate.lanes.collection import Collection
from lanegate.lanes.flake import pins
from lanegate.lanes.flake.execute import (
    ReplayRun,
    ReplaySpec,
    check_refusal,
    disabled_plugins,
    pytest_command,
    recorded_command,
    run_replay,
)
from lanegate.sandbox import Sandbox

COLLECT_REPLAY = 0  # replay number 0: the collection, never one of the plan's replays


def collect_command(paths: Sequence[str], forbidden: Sequence[str]) -> tuple[str, ...]:
    """The recorded command of the collection: a replay's argv with `--collect-only`."""
    argv = list(pytest_command(paths, forbidden))
    argv.insert(argv.index("--"), "--collect-only")
    env = {
        "PYTHONHASHSEED": "0",
        "TZ": "UTC0",
        pins.ORDER_VAR: "forward",
        pins.REPEATS_VAR: "1",
        pins.FORBIDDEN_VAR: ",".join(disabled_plugins(forbidden)),
        pins.HYPOTHESIS_DB_VAR: "off",
    }
    return recorded_command(env, argv)


def collect(
    repo: Path,
    paths: Sequence[str],
    forbidden: Sequence[str],
    wall_seconds: float,
    work: Path,
    *,
    sandbox: Sandbox,
) -> Collection:
    """The node ids pytest collects from `paths` (repo-relative), in its order, and the collectors
    that failed; nothing to collect is an empty collection, a refused command a `RunnerError`."""
    if not paths:
        return Collection(())
    spec = ReplaySpec(COLLECT_REPLAY, collect_command(paths, forbidden))
    run = run_replay(repo, spec, wall_seconds, work, sandbox=sandbox)
    check_refusal(run)
    if run.timed_out:
        raise RunnerError(f"collecting the diff's tests exceeded {wall_seconds:.0f} s")
    return collection_of(run)


def not_collected(run: ReplayRun, what: str) -> RunnerError:
    """The error of a pytest run that exited before collecting `what`: its exit and last line."""
    tail = [ln for ln in run.output_tail.strip().splitlines() if ln.strip()][-1:]
    return RunnerError(
        f"pytest exited {run.exit_code} before collecting {what}: "
        + (tail[0] if tail else "no output")
    )


def collection_of(run: ReplayRun) -> Collection:
    """What pytest collected in a run (the collection, or a replay handed the test files as
    paths): node ids in its order and the collectors that failed; a run that never got to
    collecting is a `RunnerError`."""
    node_ids: list[str] = []
    errors: list[str] = []
    details: dict[str, str] = {}
    seen_collected = False
    for line in run.lines:
        if line.get("kind") == "collected":
            seen_collected = True
            node_ids.extend(str(entry[0]) for entry in line.get("runs", []))
        elif line.get("kind") == "collect_error":
            errors.append(str(line.get("node_id")))
            detail = line.get("detail")
            if isinstance(detail, str) and detail:
                details[str(line.get("node_id"))] = detail[:300]
    if not seen_collected and not errors:
        if run.timed_out:
            raise RunnerError(
                f"pytest's collection of the diff's test files (replay {run.replay}) was cut by "
                f"the wall clock after {run.seconds:.0f} s before it reported what it collected",
                hint="raise lane.max_wall_seconds, or split the change: pytest collects every "
                "file the diff adds or changes in one process",
            )
        raise not_collected(run, "the diff's tests")
    return Collection(tuple(dict.fromkeys(node_ids)), tuple(errors), tuple(details.items()))
