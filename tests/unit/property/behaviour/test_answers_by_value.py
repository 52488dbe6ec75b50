"""The behaviour diff compares what an answer holds, never how it prints: iterators are run, an
`async def` is awaited, the arguments a call changes are part of its answer, and a function
handed back (shown only by its address) proves nothing alike; a method is called on instances
rebuilt from their state, and what it leaves in them is compared (one engine run, real sandbox)."""

from __future__ import annotations

import pytest

from lanegate.lanes.property.behaviour import FunctionBehaviour
from tests.unit.property.behaviour.repos import build, compare, same_place

BASE = """
def evens(n: int):
    return (i for i in range(n) if i % 2 == 0)


def squares(values: list[int]):
    return map(lambda v: v * v, values)


def first_pages(n: int):
    return iter(range(n))


def tidy(values: list[int]) -> None:
    values.sort()


def extended(values: list[int]) -> list[int]:
    return values + [1]


async def fetch(x: int) -> int:
    return x + 1


def make_adder(n: int):
    return lambda x: x + n


def limiter(n: int):
    if n < 0:
        raise ValueError(n)
    return lambda text: text[:n]


class Point:
    __slots__ = ("x", "y")

    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y


def point(x: int) -> Point:
    return Point(x, 0)
"""

HEAD = """
def evens(n: int):
    return (i for i in range(n) if i % 2 == 1)


def squares(values: list[int]):
    return (v * v for v in values)


def first_pages(n: int):
    for i in range(n):
        if i == 3:
            raise LookupError(i)
        yield i


def tidy(values: list[int]) -> None:
    values.reverse()


def extended(values: list[int]) -> list[int]:
    values.append(1)
    return values


async def fetch(x: int) -> int:
    return x + 2


def make_adder(n: int):
    def add(x):
        return x + n

    return add


def limiter(n: int):
    if n < 0:
        raise ValueError(n)
    return lambda text: text[: n + 1]


class Point:
    __slots__ = ("x", "y")

    def __init__(self, x: int, y: int) -> None:
        self.x, self.y = x, y


def point(x: int) -> Point:
    return Point(0, x)
"""

COUNTER = """
class Counter:
    def __init__(self, start: int) -> None:
        self.count = start

    def bump(self, by: int) -> None:
        self.count += by

    def doubled(self) -> int:
        return self.count * 2

    def capped(self, limit: int) -> int:
        return min(self.count, limit)

    def tripled(self) -> int:
        return self.count * 3
"""

COUNTER_HEAD = (
    COUNTER.replace("self.count += by", "self.count += by + by")
    .replace("self.count * 2", "self.count + self.count")
    .replace("min(self.count, limit)", "max(self.count, limit)")
    .replace(
        "return self.count * 3", "self._tripled = self.count * 3\n        return self._tripled"
    )
)

TESTS = """from pkg.counter import Counter


def test_bump():
    c = Counter(3)
    c.bump(0)
    assert c.count == 3
"""

METHODS = ("Counter.bump", "Counter.doubled", "Counter.capped", "Counter.tripled")

NAMES = (
    "evens",
    "squares",
    "first_pages",
    "tidy",
    "extended",
    "fetch",
    "make_adder",
    "limiter",
    "point",
)


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FunctionBehaviour]:
    path = tmp_path_factory.mktemp("by-value") / "repo"
    files = {"pkg/__init__.py": "", "pkg/lazy.py": BASE, "pkg/counter.py": COUNTER}
    files["tests/test_counter.py"] = TESTS
    repo, base, head = build(path, files, {"pkg/lazy.py": HEAD, "pkg/counter.py": COUNTER_HEAD})
    functions = [*same_place("pkg/lazy.py", *NAMES), *same_place("pkg/counter.py", *METHODS)]
    return compare(repo, base, head, functions, tests=("tests/test_counter.py",), max_examples=10)


def _texts(result: FunctionBehaviour) -> list[str]:
    return [str(d) for d in result.differences]


def test_a_generator_is_compared_by_what_it_yields(found: dict[str, FunctionBehaviour]) -> None:
    result = found["evens"]
    assert result.verdict == "differs", result
    assert "evens(1): base iter([0]), head iter([])" in _texts(result)


def test_map_and_a_generator_that_yield_alike_are_the_same(
    found: dict[str, FunctionBehaviour],
) -> None:
    assert found["squares"].verdict == "same", found["squares"]


def test_an_iterator_that_ends_in_an_exception_differs(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["first_pages"]
    assert result.verdict == "differs", result
    assert "<raised LookupError>" in " ".join(d.head for d in result.differences)


def test_the_arguments_a_call_leaves_behind_are_compared(
    found: dict[str, FunctionBehaviour],
) -> None:
    tidy, extended = found["tidy"], found["extended"]
    assert tidy.verdict == "differs", tidy
    # the head leaves every list it is given reversed; the base, sorted (unchanged when it was)
    assert all(d.head.startswith("None, leaving its arguments ([") for d in tidy.differences), (
        _texts(tidy)
    )
    assert extended.verdict == "differs", extended
    assert any("leaving its arguments" in d.head for d in extended.differences)


def test_an_async_function_is_compared_by_its_result(found: dict[str, FunctionBehaviour]) -> None:
    result = found["fetch"]
    assert result.verdict == "differs", result
    assert "fetch(0): base 1, head 2" in _texts(result)


def test_a_returned_function_is_never_called_the_same(found: dict[str, FunctionBehaviour]) -> None:
    result = found["make_adder"]
    assert result.verdict == "not-compared", result
    assert "a function, an object shown only by its address" in result.reason


def test_a_slotted_object_is_compared_by_its_fields(found: dict[str, FunctionBehaviour]) -> None:
    result = found["point"]
    assert result.verdict == "differs", result
    assert any("Point(x=1, y=0)" in d.base for d in result.differences), _texts(result)


def test_a_method_is_called_on_rebuilt_instances(found: dict[str, FunctionBehaviour]) -> None:
    capped, doubled = found["Counter.capped"], found["Counter.doubled"]
    assert capped.verdict == "differs", capped
    assert doubled.verdict == "same", doubled  # a refactor: alike on every instance drawn
    assert dict(doubled.sources)["hypothesis"] > 0


def test_what_a_method_leaves_in_its_instance_is_compared(
    found: dict[str, FunctionBehaviour],
) -> None:
    """The test's one call, bump(0) on Counter(3), is recorded with the instance's state; both
    versions leave count at 3 there, and differ everywhere else."""
    bump = found["Counter.bump"]
    assert bump.verdict == "differs", bump
    assert dict(bump.sources)["recorded"] == 1
    assert all(
        "leaving its arguments (pkg.counter.Counter(count=" in d.head for d in bump.differences
    )


def test_a_function_handed_back_for_some_inputs_leaves_same_unknown(
    found: dict[str, FunctionBehaviour],
) -> None:
    """limiter raises alike at base and head for n < 0 and hands back a closure otherwise: the
    closures' bodies differ (n + 1), and agreeing on the raises says nothing of them."""
    result = found["limiter"]
    assert result.verdict == "not-compared", result
    assert "what the engine cannot look into" in result.reason


def test_private_state_a_method_keeps_is_its_own_business(
    found: dict[str, FunctionBehaviour],
) -> None:
    assert found["Counter.tripled"].verdict == "same", found["Counter.tripled"]
