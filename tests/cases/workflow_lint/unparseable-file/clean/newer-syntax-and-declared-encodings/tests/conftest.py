"""Python 3.12 syntax (PEP 695 type parameters) in a project that requires it: valid Python that
lanegate, on 3.11, reads with the parameter lists blanked."""

from collections.abc import Callable, Coroutine
from typing import Any


def run_sync[T](coro: Coroutine[Any, Any, T]) -> T:
    raise NotImplementedError


class Expect[TIn, TOut: (int, str)]:
    def __init__(self, given: TIn, wanted: TOut) -> None:
        self.given, self.wanted = given, wanted


async def call_with[**P, R](func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    return func(*args, **kwargs)


type Pair[T] = tuple[T, T]
type Name = str


def test_expect() -> None:
    try:
        Expect(1, 2)
    except TypeError:
        raise
