"""The behaviour diff's values at its boundary: what is asked, and what is answered per function."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

VERDICTS = ("differs", "same", "not-compared")


@dataclass(frozen=True, slots=True)
class ChangedFunction:
    """A function (or method) that exists at base and at head and whose body the diff changed."""

    path: str  # repo-relative .py file at head
    qualname: str  # "clamp", "Cache.get" (nested functions are out of scope)
    base_path: str  # its file at base (differs when the diff moved or renamed it)
    base_qualname: str
    # source text of constants on the changed and deleted lines (both sides): Hypothesis seeds,
    # each with one either side
    literals: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Difference:
    """One input on which the versions disagree, shrunk: `clamp(11, 0, 10): base 10, head 0`."""

    call: str  # "clamp(11, 0, 10)", bounded
    base: str  # "10" | "raises ValueError", bounded
    head: str

    def __str__(self) -> str:
        return f"{self.call}: base {self.base}, head {self.head}"


@dataclass(frozen=True, slots=True)
class FunctionBehaviour:
    """What the comparison of one changed function found."""

    path: str
    qualname: str
    verdict: str  # "differs" | "same" | "not-compared"
    inputs_tried: int
    sources: tuple[tuple[str, int], ...]  # (("recorded", 12), ("hypothesis", 100), ...)
    differences: tuple[Difference, ...]  # at most MAX_EXAMPLES, only when verdict == "differs"
    reason: str = ""  # why "not-compared"
    # CPU seconds its sandboxed processes spent, with an equal share of the recording run's
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class BehaviourRequest:
    """One lane run's behaviour diff: which functions, which tests to record calls from, budget."""

    repo: Path  # the head working tree (lanegate's staged copy, as the lanes use)
    base: str  # base commit sha (the merge base with `head` is what is compared)
    head: str  # head commit sha
    functions: tuple[ChangedFunction, ...]
    tests: tuple[str, ...]  # node ids whose calls into the functions are recorded
    cpu_seconds: float  # the whole engine's CPU budget (`properties.behaviour_cpu_seconds`)
    seed: int  # same seed, same inputs
    max_examples: int = 100  # Hypothesis inputs drawn per function
