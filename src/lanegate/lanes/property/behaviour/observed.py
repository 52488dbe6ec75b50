"""Outside the sandbox: what each version answered to each case, and what that says.

Every run of a case on a version adds one `Outcome` (`answers`). A case differs when the first
answers of the two versions differ; the difference is confirmed when each version answered it at
least twice, the base the same way every time and the head never the base's way. A version is
non-deterministic when the base answered a case two ways, or the head answered it two ways one of
which is the base's. A case only one version answered (a timeout, a crash, an oversized answer) is
one-sided.
"""

from __future__ import annotations

import json

from lanegate.lanes.property.behaviour import render
from lanegate.lanes.property.behaviour.answers import Outcome
from lanegate.lanes.property.behaviour.encode import OPAQUE
from lanegate.lanes.property.behaviour.inputs import SOURCES, Case
from lanegate.lanes.property.behaviour.model import Difference

SIDES = ("base", "head")
OPAQUE_TEXT = json.dumps(OPAQUE, sort_keys=True)[1:-1]  # as it appears in a canonical answer


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
            if base is not None and head is not None and base.calls != head.calls:
                out.append(self.cases[key])
        return out

    def opaque(self, key: str) -> bool:
        """Whether either version's answer to the case holds a value shown by nothing but its
        address (`encode`: a function, a bare object): agreeing there says nothing."""
        return any(
            OPAQUE_TEXT in text
            for side in SIDES
            for outcome in [self.first(side, key)]
            if outcome is not None
            for text in outcome.calls
        )

    def answers(self, side: str, key: str) -> list[tuple[str, ...]]:
        return [o.calls for o in self.seen[side].get(key, ()) if o.answered]

    def confirmed(self, case: Case) -> bool:
        """Answered at least twice by each version, the base the same way every time, the head
        never the base's way (a head that varies but never agrees still differs)."""
        base, head = self.answers("base", case.key), self.answers("head", case.key)
        return (
            len(base) >= 2
            and len(head) >= 2
            and all(b == base[0] for b in base)
            and all(h != base[0] for h in head)
        )

    def unstable(self) -> str:
        """Why a version is non-deterministic ("" when none is): the base answered a case two
        ways, or the head answered a case two ways one of which is the base's (it agrees only
        sometimes: neither "same" nor a difference can be told)."""
        for side in ("base", "head"):
            for key in self.seen[side]:
                answered = self.answers(side, key)
                other = next((a for a in answered if a != answered[0]), None)
                if other is None:
                    continue
                base = self.answers("base", key)
                if side == "head" and base and base[0] not in answered:
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
