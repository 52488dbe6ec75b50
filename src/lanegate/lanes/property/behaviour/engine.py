"""Outside the sandbox: the comparison of every changed function, round by round, within budget.

Per function: its inputs (`inputs`: recorded calls, Hypothesis draws made at the base, literal
seeds, two-call sequences), each version called on every one of them in its own sandboxed process
(`launch`), the answers read back as data (`answers`) and compared here. A case answered
differently is run again on both versions, beside simpler cases (`shrink_candidates`), up to
`ROUNDS` times: a difference is reported only when each version answered it the same way twice;
a version that answers one case two ways makes the function `not-compared` (non-deterministic).
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from lanegate.diff import classify_diff
from lanegate.lanes.property.base_recheck import _base_tree
from lanegate.lanes.property.behaviour import render
from lanegate.lanes.property.behaviour.answers import (
    BadAnswers,
    check_call,
    generated,
    outcomes,
    read_lines,
    unavailable,
)
from lanegate.lanes.property.behaviour.encode import call_decodable
from lanegate.lanes.property.behaviour.inputs import (
    SOURCES,
    Case,
    case_of,
    default_cases,
    literal_cases,
    literal_values,
    sequence_cases,
    shrink_candidates,
    size,
)
from lanegate.lanes.property.behaviour.launch import Launcher, Tree, private_folder
from lanegate.lanes.property.behaviour.model import (
    BehaviourRequest,
    ChangedFunction,
    Difference,
    FunctionBehaviour,
)
from lanegate.lanes.property.behaviour.observed import Observed
from lanegate.lanes.property.behaviour.recording import record_calls
from lanegate.policy import Policy
from lanegate.sandbox import Sandbox, open_sandbox

MAX_EXAMPLES = 3
ROUNDS = 6  # re-checks and shrinking steps after the first round
CALL_TIMEOUT = 2.0  # wall seconds one case may take in its fork
MAX_TIMEOUTS = 2  # cases timed out in one process before the rest of its cases are skipped
MAX_ANSWER = 256 * 1024  # bytes of one case's encoded answers
STARTUP_SECONDS = 30.0  # a process's wall allowance besides its cases
CASE_SECONDS = 0.5
MIN_WALL_SECONDS = 30.0


class _Budget:
    """The CPU seconds left of the engine's budget."""

    def __init__(self, seconds: float) -> None:
        self.total = seconds
        self.spent = 0.0

    @property
    def left(self) -> float:
        return self.total - self.spent


def diff_behaviour(
    request: BehaviourRequest, *, sandbox: Sandbox, policy: Policy
) -> tuple[FunctionBehaviour, ...]:
    """Compare every function of `request` at the merge base and at head (see the package)."""
    summary = classify_diff(request.repo, request.base, policy, request.head)
    own = _own_sandbox(sandbox)
    launcher = Launcher(own, policy)
    staging = private_folder("lanegate-behaviour-base-")
    budget = _Budget(request.cpu_seconds)
    try:
        tree = _base_tree(request.repo, summary, staging)
        if isinstance(tree, str):
            return tuple(
                _not_compared(f, f"the base cannot be rebuilt: {tree}") for f in request.functions
            )
        base = Tree("base", tree.overlays, tree.removed)
        recorded, notes, cpu = record_calls(launcher, request, policy.lane.max_wall_seconds)
        budget.spent += cpu
        share = cpu / max(1, len(request.functions))
        results = []
        for index, function in enumerate(request.functions):
            fair = budget.left / (len(request.functions) - index)
            comparison = _Comparison(launcher, request, function, base, budget, fair, policy)
            results.append(comparison.run(recorded[index], notes[index], share))
        return tuple(results)
    finally:
        launcher.close()
        own.close()
        shutil.rmtree(staging, ignore_errors=True)


def _own_sandbox(sandbox: Sandbox) -> Sandbox:
    """The lane's sandbox shape, with no git dir inside (see `launch`)."""
    if not sandbox.enabled:
        return sandbox
    own = open_sandbox(sandbox.repo, sandbox.limits, hidden=sandbox.hidden, git=False)
    own.trusted_files.update(sandbox.trusted_files)
    return own


def _not_compared(function: ChangedFunction, reason: str) -> FunctionBehaviour:
    sources = tuple((s, 0) for s in SOURCES)
    return FunctionBehaviour(
        function.path, function.qualname, "not-compared", 0, sources, (), reason
    )


def _seed(seed: int, function: ChangedFunction) -> int:
    text = f"{seed}\0{function.base_path}\0{function.base_qualname}"
    return int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)


class _Comparison:
    """One function's comparison (see module)."""

    def __init__(
        self,
        launcher: Launcher,
        request: BehaviourRequest,
        function: ChangedFunction,
        base: Tree,
        budget: _Budget,
        fair: float,
        policy: Policy,
    ) -> None:
        self.launcher = launcher
        self.request = request
        self.function = function
        self.trees = {"base": base, "head": Tree("head")}
        self.budget = budget
        self.fair = fair  # this function's share of what was left when it started
        self.max_wall = policy.lane.max_wall_seconds
        self.cpu = 0.0
        self.observed = Observed(function.qualname.rsplit(".", 1)[-1])

    def _where(self, side: str) -> tuple[str, str]:
        f = self.function
        path, qualname = (f.base_path, f.base_qualname) if side == "base" else (f.path, f.qualname)
        return str(self.request.repo / path), qualname

    def _spend(self, cpu: float) -> None:
        self.cpu += cpu
        self.budget.spent += cpu

    def _affordable(self) -> bool:
        return self.budget.left > 0 and self.cpu < self.fair

    def _result(
        self, verdict: str, reason: str = "", found: Sequence[Difference] = ()
    ) -> FunctionBehaviour:
        tried, sources = self.observed.tried()
        return FunctionBehaviour(
            self.function.path,
            self.function.qualname,
            verdict,
            tried,
            sources,
            tuple(found) if verdict == "differs" else (),
            render.clip(reason, 500),
            round(self.cpu + self.extra, 3),
        )

    # --- the rounds ---------------------------------------------------------------------------

    def run(self, recorded: list[dict[str, Any]], note: str, extra: float) -> FunctionBehaviour:
        self.extra = extra
        if self.budget.left <= 0:
            return self._result("not-compared", self._spent_reason("before this function"))
        drawn, why = self._draw()
        if why.startswith("at base: "):
            return self._result("not-compared", why)
        if self.budget.left <= 0:
            return self._result("not-compared", self._spent_reason("while drawing its inputs"))
        cases = self._cases(recorded, drawn)
        if not cases:
            reasons = [r for r in (why, note or "no test called it") if r]
            return self._result("not-compared", "no inputs: " + "; ".join(reasons))
        problem = self._evaluate(cases)
        if problem:
            return self._result("not-compared", problem)
        skipped = self.observed.skipped()
        if skipped and self._affordable():  # once more, in a process of their own
            problem = self._evaluate(skipped)
            if problem:
                return self._result("not-compared", problem)
        for step in range(ROUNDS):
            unstable = self.observed.unstable()
            if unstable:
                return self._result("not-compared", unstable)
            top = sorted(self.observed.differing(), key=self._shown_first)[:MAX_EXAMPLES]
            if not top:
                break
            pending = [c for c in top if not self.observed.confirmed(c)]
            candidates: list[Case] = []
            if step < ROUNDS - 1:
                fresh = {k: c for t in top for c in shrink_candidates(t) for k in [c.key]}
                candidates = [c for k, c in fresh.items() if k not in self.observed.cases]
            if not pending and not candidates:
                break
            if not self._affordable():
                break
            problem = self._evaluate([*pending, *candidates])
            if problem:
                return self._result("not-compared", problem)
        unstable = self.observed.unstable()
        if unstable:
            return self._result("not-compared", unstable)
        return self._verdict()

    def _verdict(self) -> FunctionBehaviour:
        differing = sorted(self.observed.differing(), key=self._shown_first)
        confirmed = [c for c in differing if self.observed.confirmed(c)]
        if confirmed:
            return self._result(
                "differs", found=[self.observed.difference(c) for c in confirmed[:MAX_EXAMPLES]]
            )
        if differing:
            shown = self.observed.difference(differing[0])
            why = (
                "a second run of each version did not answer it the same way"
                if self._affordable()
                else self._spent_reason("before it was run again")
            )
            return self._result("not-compared", f"{shown} was seen once; {why}")
        problem = self.observed.one_sided()
        if problem:
            return self._result("not-compared", problem)
        never = self.observed.skipped()
        if never:
            return self._result(
                "not-compared",
                f"{len(never)} inputs were never run: earlier inputs timed out ({MAX_TIMEOUTS} "
                f"per process, {CALL_TIMEOUT:g} s each) and the budget left none to run them",
            )
        answered = self.observed.answered_keys()
        if not answered:
            return self._result("not-compared", "no input was answered by both versions")
        unseen = [key for key in answered if self.observed.opaque(key)]
        if unseen:  # one unseen part leaves "same" unknown: a closure's body, a list's tail
            return self._result(
                "not-compared",
                f"its answers to {len(unseen)} of {len(answered)} inputs hold what the engine "
                "cannot look into (a function, an object shown only by its address, or more than "
                "an answer's bounds): alike or not there is unknown",
            )
        return self._result("same")

    def _shown_first(self, case: Case) -> tuple[bool, tuple[int, int, int, str]]:
        """Which differences are confirmed and shown first: where the base takes the call (a
        base TypeError is the base refusing a call shape only the head has, which the scorer sets
        aside), then the smallest: refusals must not crowd out the differences that count."""
        return self.observed.base_refuses(case), size(case)

    def _spent_reason(self, when: str) -> str:
        return (
            f"the behaviour budget (properties.behaviour_cpu_seconds = "
            f"{self.request.cpu_seconds:g}) was spent {when}"
        )

    # --- inputs ----------------------------------------------------------------------------------

    def _draw(self) -> tuple[list[dict[str, Any]], str]:
        """Hypothesis's calls, drawn at the base, and why there are none."""
        path, qualname = self._where("base")
        job = {
            "mode": "generate",
            "path": path,
            "qualname": qualname,
            "count": self.request.max_examples,
            "seed": _seed(self.request.seed, self.function),
        }
        ran = self.launcher.job(self.trees["base"], job, self._wall(self.request.max_examples))
        self._spend(ran.cpu)
        try:
            lines = read_lines(ran.answers)
            why = unavailable(lines)
            if why:
                return [], f"at base: {why}"
            calls, reason = generated(lines)
        except BadAnswers as exc:
            return [], f"drawing inputs at the base failed: {exc}" + (
                f" ({ran.ended})" if ran.ended else ""
            )
        return [c for c in calls if _carried(c)], reason

    def _cases(self, recorded: list[dict[str, Any]], drawn: list[dict[str, Any]]) -> list[Case]:
        """Every case, the ones the diff's author could not choose first: a process stops
        calling after `MAX_TIMEOUTS` timeouts, and slow calls a new test makes must not cost the
        drawn inputs their answers."""
        singles = [*drawn, *recorded]
        cases = [case_of([c], "hypothesis") for c in drawn]
        cases += literal_cases(singles, literal_values(self.function.literals))
        cases += default_cases(singles)
        cases += sequence_cases(singles)
        cases += [case_of([c], "recorded") for c in recorded]
        unique: dict[str, Case] = {}
        for case in cases:
            unique.setdefault(case.key, case)
        return list(unique.values())

    # --- running -------------------------------------------------------------------------------

    def _wall(self, cases: int) -> float:
        """A process's wall limit: start-up and its cases, within the lane's limit and (past a
        floor) what is left of this function's share: a head that spins at import burns at most
        its own share."""
        allowed = STARTUP_SECONDS + CASE_SECONDS * cases + CALL_TIMEOUT * MAX_TIMEOUTS
        share = max(MIN_WALL_SECONDS, self.fair - self.cpu)
        return min(allowed, self.max_wall, share)

    def _evaluate(self, cases: list[Case]) -> str:
        """Run `cases` on both versions (side by side); why the answers cannot be used ("" when
        they can)."""
        self.observed.add(cases)
        calls = [case.decoded() for case in cases]
        with ThreadPoolExecutor(max_workers=2, thread_name_prefix="lanegate-behaviour") as pool:
            futures = {}
            for side in ("base", "head"):
                path, qualname = self._where(side)
                job = {
                    "mode": "evaluate",
                    "path": path,
                    "qualname": qualname,
                    "cases": calls,
                    "call_timeout": CALL_TIMEOUT,
                    "max_timeouts": MAX_TIMEOUTS,
                    "max_answer": MAX_ANSWER,
                }
                futures[side] = pool.submit(
                    self.launcher.job, self.trees[side], job, self._wall(len(cases))
                )
            ran = {side: future.result() for side, future in futures.items()}
        for side in ("base", "head"):
            self._spend(ran[side].cpu)
        for side in ("base", "head"):
            try:
                lines = read_lines(ran[side].answers)
                why = unavailable(lines)
                if why:
                    return f"at {side}: {why}"
                answers = outcomes(lines, calls)
            except BadAnswers as exc:
                ended = f" ({ran[side].ended})" if ran[side].ended else ""
                return f"the {side}'s answers cannot be read: {exc}{ended}"
            self.observed.record(side, cases, answers)
        return ""


def _carried(call: Any) -> bool:
    try:
        check_call(call)
    except BadAnswers:
        return False
    return call_decodable(call["args"], call["kwargs"])
