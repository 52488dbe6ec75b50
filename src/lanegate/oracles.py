"""Property oracles: small laws a test asserts about the code under test, each failing with a clear message.

Call them from Hypothesis properties (or any test) on values that come from the test's own inputs; the
property lane's oracle check (`lanegate oracles`) requires that every new test calls one. Pure Python.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

__all__ = [
    "associative",
    "commutes",
    "equivalent",
    "idempotent",
    "inverse_pair",
    "invariant",
    "monotonic",
    "ordered",
    "permutation_of",
    "raises",
    "round_trip",
    "schema",
    "total_order",
]

T = TypeVar("T")
U = TypeVar("U")

_MAX_REPR = 300


def _show(value: Any) -> str:
    """A bounded repr: assertion messages must stay readable for huge generated inputs."""
    text = repr(value)
    return text if len(text) <= _MAX_REPR else text[: _MAX_REPR - 3] + "..."


def _name(f: Callable[..., Any]) -> str:
    return getattr(f, "__qualname__", None) or getattr(f, "__name__", None) or _show(f)


def round_trip(encode: Callable[[T], U], decode: Callable[[U], T], value: T) -> U:
    """Assert `decode(encode(value)) == value`; returns the encoded form for further checks.

    Example: `round_trip(json.dumps, json.loads, {"a": [1, 2]})`
    """
    encoded = encode(value)
    decoded = decode(encoded)
    if decoded != value:
        raise AssertionError(
            f"round trip failed: {_name(decode)}({_name(encode)}(value)) != value\n"
            f"  value:   {_show(value)}\n  encoded: {_show(encoded)}\n  decoded: {_show(decoded)}"
        )
    return encoded


def inverse_pair(f: Callable[[T], U], g: Callable[[U], T], value: T, image: U) -> None:
    """Assert `g(f(value)) == value` and `f(g(image)) == image`: f and g invert each other both ways.

    Example: `inverse_pair(str, int, 42, "42")`
    """
    round_trip(f, g, value)
    round_trip(g, f, image)


def idempotent(f: Callable[[T], T], x: T) -> T:
    """Assert `f(f(x)) == f(x)`; returns `f(x)`.

    Example: `idempotent(sorted, [3, 1, 2])`
    """
    once = f(x)
    twice = f(once)
    if twice != once:
        raise AssertionError(
            f"not idempotent: {_name(f)}({_name(f)}(x)) != {_name(f)}(x)\n"
            f"  x:     {_show(x)}\n  once:  {_show(once)}\n  twice: {_show(twice)}"
        )
    return once


def monotonic(
    f: Callable[[T], Any],
    a: T,
    b: T,
    key: Callable[[T], Any] | None = None,
    *,
    strict: bool = False,
) -> None:
    """Assert that f preserves order: `key(a) <= key(b)` implies `f(a) <= f(b)` (`<` when strict).

    Example: `monotonic(abs, 3, 7)`
    """
    ka: Any = a if key is None else key(a)
    kb: Any = b if key is None else key(b)
    if kb < ka:
        a, b, ka, kb = b, a, kb, ka
    fa, fb = f(a), f(b)
    if strict and ka < kb and not fa < fb:
        raise AssertionError(
            f"not strictly monotonic: {_name(f)}(a) < {_name(f)}(b) fails although a < b\n"
            f"  a: {_show(a)} -> {_show(fa)}\n  b: {_show(b)} -> {_show(fb)}"
        )
    if fb < fa:
        raise AssertionError(
            f"not monotonic: {_name(f)}(a) > {_name(f)}(b) although a <= b\n"
            f"  a: {_show(a)} -> {_show(fa)}\n  b: {_show(b)} -> {_show(fb)}"
        )


def commutes(f: Callable[[T, T], U], a: T, b: T) -> U:
    """Assert `f(a, b) == f(b, a)`; returns `f(a, b)`.

    Example: `commutes(max, 2, 5)`
    """
    ab, ba = f(a, b), f(b, a)
    if ab != ba:
        raise AssertionError(
            f"not commutative: {_name(f)}(a, b) != {_name(f)}(b, a)\n"
            f"  a: {_show(a)}\n  b: {_show(b)}\n  f(a, b): {_show(ab)}\n  f(b, a): {_show(ba)}"
        )
    return ab


def associative(f: Callable[[T, T], T], a: T, b: T, c: T) -> T:
    """Assert `f(f(a, b), c) == f(a, f(b, c))`; returns the common value.

    Example: `associative(min, 4, 1, 7)`
    """
    left, right = f(f(a, b), c), f(a, f(b, c))
    if left != right:
        raise AssertionError(
            f"not associative: {_name(f)}({_name(f)}(a, b), c) != {_name(f)}(a, {_name(f)}(b, c))\n"
            f"  a: {_show(a)}\n  b: {_show(b)}\n  c: {_show(c)}\n"
            f"  left:  {_show(left)}\n  right: {_show(right)}"
        )
    return left


def equivalent(f: Callable[..., Any], reference: Callable[..., Any], *args: Any) -> Any:
    """Assert `f(*args) == reference(*args)` (a differential test against a trusted model).

    Example: `equivalent(len, lambda s: sum(1 for _ in s), "abc")`
    """
    got, want = f(*args), reference(*args)
    if got != want:
        raise AssertionError(
            f"differs from the reference: {_name(f)}(*args) != {_name(reference)}(*args)\n"
            f"  args: {_show(args)}\n  got:  {_show(got)}\n  want: {_show(want)}"
        )
    return got


def raises(
    exception: type[BaseException] | tuple[type[BaseException], ...],
    f: Callable[..., Any],
    *args: Any,
) -> BaseException:
    """Assert `f(*args)` raises `exception` (an input outside f's domain is refused); returns it.

    Example: `raises(ValueError, int, "ten")`
    """
    try:
        out = f(*args)
    except exception as exc:
        return exc
    raise AssertionError(
        f"{_name(f)}(*args) raised nothing, expected {_exception_names(exception)}\n"
        f"  args: {_show(args)}\n  returned: {_show(out)}"
    )


def _exception_names(exception: type[BaseException] | tuple[type[BaseException], ...]) -> str:
    kinds = exception if isinstance(exception, tuple) else (exception,)
    return " or ".join(getattr(k, "__name__", _show(k)) for k in kinds)


def invariant(f: Callable[[T], U], measure: Callable[[Any], Any], x: T) -> U:
    """Assert `measure(f(x)) == measure(x)` (e.g. sorting keeps the length); returns `f(x)`.

    Example: `invariant(sorted, len, [3, 1, 2])`
    """
    out = f(x)
    before, after = measure(x), measure(out)
    if before != after:
        raise AssertionError(
            f"{_name(measure)} not preserved by {_name(f)}: {_show(before)} -> {_show(after)}\n"
            f"  x: {_show(x)}\n  f(x): {_show(out)}"
        )
    return out


def ordered(
    items: Iterable[T], key: Callable[[T], Any] | None = None, *, strict: bool = False
) -> None:
    """Assert that `items` are sorted ascending by `key` (strictly when `strict`).

    Example: `ordered(sorted([3, 1, 2]))`
    """
    seq = list(items)
    for i in range(len(seq) - 1):
        left: Any = seq[i] if key is None else key(seq[i])
        right: Any = seq[i + 1] if key is None else key(seq[i + 1])
        if right < left or (strict and not left < right):
            raise AssertionError(
                f"not {'strictly ' if strict else ''}ordered at index {i}: "
                f"{_show(left)} then {_show(right)}"
            )


def permutation_of(items: Iterable[T], original: Iterable[T]) -> None:
    """Assert that `items` holds exactly the elements of `original`, with multiplicity.

    Example: `permutation_of(sorted([3, 1, 2]), [3, 1, 2])`
    """
    got, want = list(items), list(original)
    remaining = list(want)
    extra: list[T] = []
    for item in got:
        try:
            remaining.remove(item)
        except ValueError:
            extra.append(item)
    if extra or remaining:
        raise AssertionError(
            f"not a permutation: extra {_show(extra)}, missing {_show(remaining)}\n"
            f"  got:  {_show(got)}\n  want: {_show(want)}"
        )


def total_order(le: Callable[[T, T], bool], a: T, b: T, c: T) -> None:
    """Assert that `le` is a total order on a, b, c: total, antisymmetric and transitive.

    Example: `total_order(lambda x, y: x <= y, 1, 2, 3)`
    """
    if not (le(a, b) or le(b, a)):
        raise AssertionError(
            f"not total: neither a <= b nor b <= a\n  a: {_show(a)}\n  b: {_show(b)}"
        )
    if le(a, b) and le(b, a) and a != b:
        raise AssertionError(
            f"not antisymmetric: a <= b and b <= a but a != b\n  a: {_show(a)}\n  b: {_show(b)}"
        )
    if le(a, b) and le(b, c) and not le(a, c):
        raise AssertionError(
            f"not transitive: a <= b <= c but not a <= c\n"
            f"  a: {_show(a)}\n  b: {_show(b)}\n  c: {_show(c)}"
        )


_TypeSpec = type | tuple[type, ...]


def schema(
    payload: Any,
    required: Iterable[str],
    types: Mapping[str, _TypeSpec] | None = None,
    *,
    allow_extra: bool = True,
) -> None:
    """Assert that `payload` is a mapping with every `required` key, each of the given `types`.

    A bool is never accepted where int or float is asked (JSON's true is not 1).

    Example: `schema(json.loads('{"id": 1}'), ["id"], {"id": int})`
    """
    if not isinstance(payload, Mapping):
        raise AssertionError(f"schema: payload is {type(payload).__name__}, not a mapping")
    need = list(required)
    missing = [key for key in need if key not in payload]
    if missing:
        raise AssertionError(
            f"schema: missing required key(s) {missing}; have {sorted(map(str, payload))}"
        )
    expected_types = dict(types or {})
    for key, spec in expected_types.items():
        if key not in payload:
            continue
        value = payload[key]
        allowed = spec if isinstance(spec, tuple) else (spec,)
        is_bool_as_number = isinstance(value, bool) and bool not in allowed
        if is_bool_as_number or not isinstance(value, allowed):
            names = " | ".join(t.__name__ for t in allowed)
            raise AssertionError(
                f"schema: key {key!r} is {type(value).__name__} ({_show(value)}), expected {names}"
            )
    if not allow_extra:
        known = set(need) | set(expected_types)
        extra = sorted(str(k) for k in payload if k not in known)
        if extra:
            raise AssertionError(f"schema: unexpected key(s) {extra}")
