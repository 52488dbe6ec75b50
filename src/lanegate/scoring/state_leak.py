"""A state leak: a test that fails only when it runs again in a process where it already ran.

pytest runs each test once per process, so what a test leaves behind in its own process (a
parametrize value it changes in place, a module-level cache, a class attribute, a patch it never
undoes) meets it only in the flake lane's in-process runs. That is real and worth reporting, but it
is not non-determinism: a fresh process passes every time. The evidence, all from recorded runs:

- every first run of the test in a process passed: each replay's first pass, every isolation and
  shared-host run (children forked before any test ran) and every fresh-interpreter run that could
  run it, at least
  `MIN_FIRST_RUNS` of them;
- its later runs in a process (a second pass, every other batch) only passed or failed, some failed;
- the plain reruns tell a position from chance: the `repeat` batches of at least two replays
  failed, and every `repeat` batch's run-order outcomes agree on each run two batches both made. A
  repeat run's random seed differs from replay to replay, so a test failing by chance agrees this
  way rarely (about 2% at worst over 4-5 runs), while a leak fails at the same runs in every process.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from lanegate.ledgers.models import Dimension, FlakeTest, Outcome, RunBatch
from lanegate.scoring.flake_power import batch_kinds, judged_kinds

MIN_FIRST_RUNS = 3
# each run a first run in its process
_FRESH = frozenset({Dimension.ISOLATION, Dimension.HASH_SEED, Dimension.SHARED_HOST})
_LATER = frozenset({Outcome.PASSED, Outcome.FAILED})


@dataclass(frozen=True, slots=True)
class StateLeak:
    """The runs that show a state leak: how many first runs passed, and which later runs failed."""

    first_runs: int
    shown_by: tuple[str, ...]  # "r2.repeat pfpfp" (run-order outcomes), "r1 pass 2"

    def describe(self) -> str:
        """One line for the ledger's `reproduce` and the rule's message."""
        return (
            f"a state leak, not a flake: passed in all {self.first_runs} of its first runs in a "
            f"process, failed only when run again in a process where it already ran "
            f"({'; '.join(self.shown_by)})"
        )


def _agree(a: str, b: str) -> bool:
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def _shown(batch: RunBatch) -> str:
    runs = batch.sequence or f"{batch.failed} of {batch.runs} failed"
    return f"r{batch.replay}.{batch.dimension} {runs}"


def state_leak(test: FlakeTest) -> StateLeak | None:
    """The state leak `test`'s runs show (give the test as judged), or None."""
    firsts = [r.outcome for r in test.replays if r.repeat == 0]
    base = set(firsts)
    if base != {Outcome.PASSED}:
        return None
    fresh = [b for b in test.batches if b.dimension in _FRESH and judged_kinds(b, base)]
    if any(batch_kinds(b) != {Outcome.PASSED} for b in fresh):
        return None
    first_runs = len(firsts) + sum(b.passed for b in fresh)
    later_passes = [r for r in test.replays if r.repeat > 0]
    later = [b for b in test.batches if b.dimension not in _FRESH]
    kinds = {r.outcome for r in later_passes}.union(*(batch_kinds(b) for b in later))
    if first_runs < MIN_FIRST_RUNS or not kinds <= _LATER or Outcome.FAILED not in kinds:
        return None
    repeats = [b for b in later if b.dimension is Dimension.REPEAT]
    if any(not b.sequence for b in repeats):
        return None
    if len({b.replay for b in repeats if b.failed}) < 2:
        return None
    if not all(_agree(a.sequence, b.sequence) for a, b in combinations(repeats, 2)):
        return None
    shown = [
        f"r{r.replay} pass {r.repeat + 1}" for r in later_passes if r.outcome is Outcome.FAILED
    ]
    shown += [_shown(b) for b in later if b.failed]
    return StateLeak(first_runs=first_runs, shown_by=tuple(shown))
