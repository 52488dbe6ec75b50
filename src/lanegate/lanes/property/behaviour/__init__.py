"""The behaviour diff: inputs on which a changed function answers differently at base and at head.

One face::

    diff_behaviour(request: BehaviourRequest, *, sandbox: Sandbox, policy: Policy)
        -> tuple[FunctionBehaviour, ...]          # one per request.functions, in order

`sandbox` is the lane's (`lane_sandbox`): the engine opens its own of the same shape, with no git
dir inside, and closes it. `policy` gives the lane's pytest flags and wall limit;
`request.cpu_seconds` is `properties.behaviour_cpu_seconds`.

For each `ChangedFunction` the inputs are: the calls `request.tests` make into it (recorded at
head, `record`), Hypothesis draws from the base's annotations under `request.seed` (`driver`), each
literal of the changed lines and one either side put in their place, and two-call sequences
(`inputs`). Each version is called on them in its own sandboxed `python -m pytest` process (the
lane's flags, environment and sandbox; the base's files mounted over the head's for the base),
every case in a fork of its own with a timeout; answers come back as bounded data-only JSON
(`encode`, `answers`) and are compared outside. Differences are re-checked on both versions and
shrunk (`engine`); verdicts: `differs` (with up to three `Difference`s), `same`, or `not-compared`
with a reason (no strategy and no recorded call, an import failure, a timeout, crash or oversized
answer of one side, a non-deterministic version, the budget).

What the head can still do (it runs in the process that calls it): inspect its stack and see the
driver's frames and the generated test module, so it can tell these runs from the test runs; see
that no git dir is there (the test runs have one); answer anything it likes for itself. It cannot
read the base's code (no git dir, the base's files are mounted only into the base's processes) nor
the base's answers (written into the base process's own scratch folder, never mounted elsewhere).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lanegate.lanes.property.behaviour.model import (
    VERDICTS,
    BehaviourRequest,
    ChangedFunction,
    Difference,
    FunctionBehaviour,
)

__all__ = [
    "VERDICTS",
    "BehaviourRequest",
    "ChangedFunction",
    "Difference",
    "FunctionBehaviour",
    "diff_behaviour",
]

if TYPE_CHECKING:
    from lanegate.lanes.property.behaviour.engine import diff_behaviour


def __getattr__(name: str) -> Any:
    """`diff_behaviour`, imported on first use: the modules that run inside the sandbox (`driver`,
    `record`) are in this package, and must not pay for the engine's imports in every process."""
    if name == "diff_behaviour":
        from lanegate.lanes.property.behaviour.engine import diff_behaviour

        return diff_behaviour
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
