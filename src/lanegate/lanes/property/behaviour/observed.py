"""Outside the sandbox: what each version answered to each case, and what that says.

Every run of a case on a version adds one `Outcome` (`answers`). A case differs when the first
answers of the two versions differ; the difference is confirmed when each version answered it at
least twice, the base the same way every time and the head never the base's way. A version is
non-deterministic when the base answered a case two ways, or the head answered it two ways one of
which is the base's. A case only one version answered (a timeout, a crash, an oversized answer) is
one-sided. Answers are alike when they are the same but for floats within `REL_TOL` (or
`ABS_TOL` of zero) of each other (`alike`): a sum taken in another order, or `fsum` for `sum`,
rounds its last bits differently and is the same answer to a caller.
"""

from __future__ import annotations

import functools
import json
import math
from typing import Any

from lanegate.lanes.property.behaviour import render
from lanegate.lanes.property.behaviour.answers import Outcome
from lanegate.lanes.property.behaviour.encode import OPAQUE
from lanegate.lanes.property.behaviour.inputs import SOURCES, Case
from lanegate.lanes.property.behaviour.model import Difference

SIDES = ("base", "head")
REL_TOL = 1e-9
REFUSED_TEXT = '"raises": "TypeError"'
ABS_TOL = 1e-12
OPAQUE_TEXT = json.dumps(OPAQUE, sort_keys=True)[1:-1]  # as it appears in a canonical answer
PARTIAL_TEXT = '"$": "more"'


class Observed:
    """The outcomes of one function's cases on both versions (`name`: how calls are shown)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.cases: dict[str, Case] = {}
        self.seen: dict[str, dict[str, list[Outcome]]] = {side: {} for side in SIDES}

    def add(self, cases: list[Case]) -> None:
        """Cases about to be run (a case keeps the source it was first added with)."""
        for case in cases:
            self.cases.setdefault(case.key, case)

    def record(self, side: str, cases: list[Case], outcomes: list[Outcome]) -> None:
        for case, outcome in zip(cases, outcomes, strict=True):
            self.seen[side].setdefault(case.key, []).append(outcome)

    def tried(self) -> tuple[int, tuple[tuple[str, int], ...]]:
        """How many cases both versions answered, and how many of them came from each source."""
        counts = dict.fromkeys(SOURCES, 0)
        for key in self.answered_keys():
            counts[self.cases[key].source] += 1
        return sum(counts.values()), tuple(counts.items())

    def first(self, side: str, key: str) -> Outcome | None:
        return next((o for o in self.seen[side].get(key, ()) if o.answered), None)

    def answered_keys(self) -> list[str]:
        return [k for k in self.cases if self.first("base", k) and self.first("head", k)]

    def differing(self) -> list[Case]:
        out = []
        for key in self.answered_keys():
            base, head = self.first("base", key), self.first("head", key)
            if base is not None and head is not None and not alike(base.calls, head.calls):
                out.append(self.cases[key])
        return out

    def opaque(self, key: str) -> bool:
        """Whether either version's answer to the case holds a part the encoding could not show:
        a value shown by nothing but its address (a function, a bare object), or what lay past
        the encoding's bounds (`encode`: a `more` marker): agreeing there says nothing."""
        return any(
            OPAQUE_TEXT in text or PARTIAL_TEXT in text
            for side in SIDES
            for outcome in [self.first(side, key)]
            if outcome is not None
            for text in outcome.calls
        )

    def skipped(self) -> list[Case]:
        """The cases some version never ran (each of its runs of them was skipped after its
        process's timeouts)."""
        return [
            case
            for key, case in self.cases.items()
            if any(
                (runs := self.seen[side].get(key)) and all(o.error == "skipped" for o in runs)
                for side in SIDES
            )
        ]

    def base_refuses(self, case: Case) -> bool:
        """Whether the base's first answer to the case raised TypeError (a call it cannot take)."""
        first = self.first("base", case.key)
        return first is not None and any(REFUSED_TEXT in text for text in first.calls)

    def answers(self, side: str, key: str) -> list[tuple[str, ...]]:
        return [o.calls for o in self.seen[side].get(key, ()) if o.answered]

    def confirmed(self, case: Case) -> bool:
        """Answered at least twice by each version, the base the same way every time, the head
        never the base's way (a head that varies but never agrees still differs)."""
        base, head = self.answers("base", case.key), self.answers("head", case.key)
        return (
            len(base) >= 2
            and len(head) >= 2
            and all(alike(b, base[0]) for b in base)
            and not any(alike(h, base[0]) for h in head)
        )

    def unstable(self) -> str:
        """Why a version is non-deterministic ("" when none is): the base answered a case two
        ways, or the head answered a case two ways one of which is the base's (it agrees only
        sometimes: neither "same" nor a difference can be told)."""
        for side in ("base", "head"):
            for key in self.seen[side]:
                answered = self.answers(side, key)
                other = next((a for a in answered if not alike(a, answered[0])), None)
                if other is None:
                    continue
                base = self.answers("base", key)
                if side == "head" and base and not any(alike(base[0], a) for a in answered):
                    continue  # varies, but never as the base answers: a difference
                call = render.case(self.name, self.cases[key].decoded())
                return render.clip(
                    f"non-deterministic at {side}: {call} gave "
                    f"{render.outcome(answered[0], '')}, then {render.outcome(other, '')}",
                    500,
                )
        return ""

    def one_sided(self) -> str:
        """The first case only one version answered (a timeout, a crash, an oversized answer),
        or that both failed to answer in different ways ("" when there is none)."""
        for key, case in self.cases.items():
            base, head = self.seen["base"].get(key), self.seen["head"].get(key)
            if not base or not head or base[0].error == head[0].error:
                continue
            b, h = base[0].error, head[0].error
            side, error = ("head", h) if h and h != "skipped" else ("base", b)
            if error and error != "skipped":
                call = render.case(self.name, case.decoded())
                return render.clip(f"{side}: {render.outcome((), error)} on {call}", 500)
        return ""

    def difference(self, case: Case) -> Difference:
        base = self.answers("base", case.key)
        heads = list(dict.fromkeys(self.answers("head", case.key)))
        head = " or ".join(render.outcome(h, "") for h in heads[:2]) + (
            " or ..." if heads[2:] else ""
        )
        return Difference(
            render.case(self.name, case.decoded()),
            render.outcome(base[0], "") if base else "no answer",
            render.clip(head) if heads else "no answer",
        )


def alike(first: tuple[str, ...], second: tuple[str, ...]) -> bool:
    """Whether two answers to a case are the same answer (see module: floats within tolerance)."""
    if first == second:
        return True
    if len(first) != len(second):
        return False
    return all(_alike(_parsed(a), _parsed(b)) for a, b in zip(first, second, strict=True))


@functools.lru_cache(maxsize=4096)
def _parsed(text: str) -> Any:
    return json.loads(text)


def _alike(a: Any, b: Any) -> bool:
    """Structural equality of two encoded values, floats within tolerance (iterative: answers
    are bounded in depth, but a walk needs no recursion)."""
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        if isinstance(x, dict) and isinstance(y, dict):
            if x.get("$") == y.get("$") == "float":
                if not _close(x.get("r"), y.get("r")):
                    return False
                continue
            if x.keys() != y.keys():
                return False
            todo.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                return False
            todo.extend(zip(x, y, strict=True))
        elif type(x) is not type(y) or x != y:
            return False
    return True


def _close(x: Any, y: Any) -> bool:
    try:
        a, b = float(x), float(y)
    except (TypeError, ValueError):
        return bool(x == y)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=ABS_TOL)
