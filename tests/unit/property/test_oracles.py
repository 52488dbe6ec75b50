"""lanegate.oracles: each law passes on lawful functions and fails, with a message, on broken ones."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate import oracles

ints = st.integers(-1000, 1000)


@settings(derandomize=True, max_examples=50)
@given(st.lists(ints))
def test_round_trip_and_inverse(xs: list[int]) -> None:
    oracles.round_trip(json.dumps, json.loads, xs)
    oracles.inverse_pair(lambda v: [-x for x in v], lambda v: [-x for x in v], xs, xs[::-1])
    if xs:
        with pytest.raises(AssertionError, match="round trip failed"):
            oracles.round_trip(json.dumps, lambda s: json.loads(s)[1:], xs)


@settings(derandomize=True, max_examples=50)
@given(ints, ints, ints)
def test_algebraic_laws(a: int, b: int, c: int) -> None:
    oracles.commutes(lambda x, y: x + y, a, b)
    oracles.associative(max, a, b, c)
    oracles.monotonic(lambda x: 2 * x, a, b, strict=True)
    oracles.total_order(lambda x, y: x <= y, a, b, c)
    oracles.idempotent(abs, a)
    oracles.equivalent(abs, lambda x: x if x >= 0 else -x, a)
    if a != b:
        with pytest.raises(AssertionError, match="not commutative"):
            oracles.commutes(lambda x, y: x - y, a, b)
        with pytest.raises(AssertionError, match="not monotonic"):
            oracles.monotonic(lambda x: -x, a, b)


@settings(derandomize=True, max_examples=50)
@given(st.lists(ints))
def test_ordering_laws(xs: list[int]) -> None:
    oracles.ordered(sorted(xs))
    oracles.permutation_of(sorted(xs), xs)
    oracles.invariant(sorted, len, xs)
    if len(set(xs)) > 1:
        with pytest.raises(AssertionError, match="not ordered"):
            oracles.ordered(sorted(xs, reverse=True))
        with pytest.raises(AssertionError, match="not a permutation"):
            oracles.permutation_of(sorted(set(xs))[1:], xs)


def test_schema() -> None:
    oracles.schema({"a": 1, "b": "x"}, ["a"], types={"a": int, "b": (str, type(None))})
    with pytest.raises(AssertionError, match="missing required key"):
        oracles.schema({"a": 1}, ["a", "b"])
    with pytest.raises(AssertionError, match="key 'a' is bool"):
        oracles.schema({"a": True}, ["a"], types={"a": int})
    with pytest.raises(AssertionError, match="unexpected key"):
        oracles.schema({"a": 1, "z": 2}, ["a"], allow_extra=False)
    with pytest.raises(AssertionError, match="not a mapping"):
        oracles.schema([1], ["a"])


def test_messages_are_bounded() -> None:
    with pytest.raises(AssertionError) as info:
        oracles.idempotent(lambda s: s + "x", "y" * 10_000)
    assert len(str(info.value)) < 2_000


@given(st.integers(max_value=0))
def test_raises_is_an_exception_contract(limit: int) -> None:
    def refuse(n: int) -> int:
        if n < 1:
            raise ValueError("limit must be at least 1")
        return n

    error = oracles.raises(ValueError, refuse, limit)
    assert isinstance(error, ValueError) and "at least 1" in str(error)
    assert isinstance(oracles.raises((KeyError, ValueError), refuse, limit), ValueError)
    with pytest.raises(AssertionError, match="raised nothing, expected ValueError"):
        oracles.raises(ValueError, refuse, 1 - limit)
    with pytest.raises(TypeError):  # another exception is no pass: it propagates
        oracles.raises(ValueError, refuse, "one")
