"""What the outcomes of a case on both versions say: a confirmed difference, non-determinism, a
one-sided failure (plain values, no sandbox)."""

from __future__ import annotations

import json
import math

from lanegate.lanes.property.behaviour.answers import Outcome
from lanegate.lanes.property.behaviour.encode import encode
from lanegate.lanes.property.behaviour.inputs import case_of
from lanegate.lanes.property.behaviour.observed import Observed, alike

CASE = case_of([{"args": [1], "kwargs": []}], "hypothesis")


def _ok(value: int) -> Outcome:
    return Outcome(calls=(f'{{"ok": {value}}}',))


def _observed(base: list[Outcome], head: list[Outcome]) -> Observed:
    seen = Observed("f")
    seen.add([CASE])
    for outcome in base:
        seen.record("base", [CASE], [outcome])
    for outcome in head:
        seen.record("head", [CASE], [outcome])
    return seen


def test_a_difference_is_confirmed_by_two_runs_of_each() -> None:
    once = _observed([_ok(1)], [_ok(2)])
    assert once.differing() == [CASE] and not once.confirmed(CASE)
    twice = _observed([_ok(1), _ok(1)], [_ok(2), _ok(2)])
    assert twice.confirmed(CASE) and twice.unstable() == ""
    assert str(twice.difference(CASE)) == "f(1): base 1, head 2"
    assert twice.tried() == (1, (("recorded", 0), ("hypothesis", 1), ("literals", 0), ("defaults", 0),
                                 ("sequences", 0), ("shrinking", 0)))  # fmt: skip


def test_a_varying_base_or_a_head_that_sometimes_agrees_is_non_deterministic() -> None:
    assert (
        _observed([_ok(1), _ok(3)], [_ok(2), _ok(2)])
        .unstable()
        .startswith("non-deterministic at base: f(1) gave 1, then 3")
    )
    assert (
        _observed([_ok(1), _ok(1)], [_ok(2), _ok(1)])
        .unstable()
        .startswith("non-deterministic at head")
    )
    never = _observed([_ok(1), _ok(1)], [_ok(2), _ok(3)])
    assert never.unstable() == "" and never.confirmed(CASE)
    assert never.difference(CASE).head == "2 or 3"


def test_one_sided_failures_are_named_and_alike_ones_are_not() -> None:
    timeout = Outcome(error="timeout")
    assert _observed([_ok(1)], [timeout]).one_sided() == "head: timed out on f(1)"
    assert _observed([timeout], [timeout]).one_sided() == ""
    assert _observed([_ok(1)], [Outcome(error="skipped")]).one_sided() == ""
    assert _observed([_ok(1)], [timeout]).differing() == []


def _float(value: float) -> Outcome:
    return Outcome(calls=(json.dumps({"ok": encode([value, "x"])}, sort_keys=True),))


def test_floats_that_round_their_last_bits_apart_are_alike_and_others_differ() -> None:
    """`sum` and `math.fsum` of [0.1] * 10 answer 0.9999999999999999 and 1.0: one answer."""
    rounded = _observed([_float(sum([0.1] * 10))] * 2, [_float(math.fsum([0.1] * 10))] * 2)
    assert rounded.differing() == [] and rounded.unstable() == ""
    near_zero = _observed([_float(0.0)] * 2, [_float(5.5e-17)] * 2)
    assert near_zero.differing() == []
    wrong = _observed([_float(1.0)] * 2, [_float(1.0001)] * 2)
    assert wrong.differing() == [CASE] and wrong.confirmed(CASE)
    nan = _observed([_float(math.nan)] * 2, [_float(math.nan)] * 2)
    assert nan.differing() == []
    assert not alike(_float(1.0).calls, _ok(1).calls)  # 1.0 and 1 are different answers
