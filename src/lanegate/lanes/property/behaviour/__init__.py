"""The behaviour diff: inputs on which a changed function answers differently at base and at head.

One face::

    diff_behaviour(request: BehaviourRequest, *, sandbox: Sandbox, policy: Policy)
        -> tuple[FunctionBehaviour, ...]          # one per request.functions, in order

    BehaviourRequest(repo, base, head, functions: tuple[ChangedFunction, ...],
                     tests: tuple[str, ...], cpu_seconds: float, seed: int,
                     max_examples: int = 100)
    ChangedFunction(path, qualname, base_path, base_qualname, literals: tuple[str, ...] = ())
    FunctionBehaviour(path, qualname, verdict, inputs_tried, sources, differences,
                      reason="", seconds=0.0)
    Difference(call, base, head)                  # str(): "clamp(11, 0, 10): base 10, head 0"

`sandbox` is the lane's (`lane_sandbox`): the engine opens its own of the same shape, with no git
dir inside (`Sandbox.git=False`), and closes it. `policy` gives the lane's pytest flags and wall
limit; `request.cpu_seconds` is `properties.behaviour_cpu_seconds`; `request.base` is compared
through its merge base with `request.head`, which must be the checked-out tree at `request.repo`.
Raises only git's and the sandbox's errors (`GitError` from `classify_diff`, `SandboxError` when no
sandbox can be opened or the run is being stopped); everything about a function is in its
`FunctionBehaviour`.

Inputs per `ChangedFunction` (counted per source in `sources`, always in this order): `recorded`
(the distinct calls `request.tests` make into it, recorded at head by `record`, at most 64),
`hypothesis` (`max_examples` draws from the base's annotations under a seed derived from
`request.seed`, made in a base process by `driver`), `literals` (each constant of `literals` and
one either side put in place of an argument of its kind), `sequences` (a call, then the same call
with one argument changed: a cache keyed on too few arguments), `shrinking`. Each version is called
on them in its own sandboxed `python -m pytest` process (the lane's flags, environment and sandbox;
the base's files mounted over the head's for the base), every case in a fork of its own with a
timeout; answers come back as bounded data-only JSON (`encode`, `answers`) and are compared outside
(return values by type and structure, exceptions by type).

Verdicts: `differs` (up to three shrunk `Difference`s, each answered the same way twice by the base
and never the base's way by the head), `same` (every case answered alike by both: `inputs_tried`
says how many), `not-compared` with a `reason`: no strategy and no recorded call, an import failure
at either side, a timeout, crash or unreadable answers of one side, a non-deterministic base (or a
head that agrees only sometimes), answers that hold only functions or address-only objects, the
budget. An instance method is called on instances rebuilt from their state (the fields the tests'
instances had, or Hypothesis's build of its class), and what it leaves in them is compared.

What the head can still do (it runs in the process that calls it): inspect its stack and see the
driver's frames and the generated test module `test_lanegate_calls.py`, and see that no git dir is
there (the lane's test runs have one), so it can tell these runs from test runs and answer for
itself however it likes there (an author who knows the base's code can make it answer as the base
does only here); write into its own answers file (which at worst makes them unreadable:
`not-compared`). It cannot read the base's code (no git dir; the base's files are mounted only into
the base's processes, from a folder under the host's `/tmp`, which every sandbox covers) nor the
base's answers (in the base process's own scratch folder), nor hang the engine (a timeout per case,
a wall limit per process), nor make an answer larger than its bounds.
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
