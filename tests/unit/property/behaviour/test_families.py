"""The behaviour diff on the wrong-change families and their honest twins, in one real repository
compared in the real sandbox (one engine run; each test reads one function's verdict)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate.lanes.property.behaviour import FunctionBehaviour
from tests.unit.property.behaviour.repos import build, compare, same_place

BASE = """import random

_memo = {}


def clamp(x: int, lo: int, hi: int) -> int:
    if x > hi:
        return hi
    if x < lo:
        return lo
    return x


def is_adult(age: int) -> bool:
    return age >= 18


def scaled(value: int, factor: int = 2) -> int:
    return value * factor


def parse_port(text: str) -> int:
    if not text.isdigit():
        raise ValueError(text)
    return int(text)


def greeting(name: str) -> str:
    return "Hello, " + name


def price(amount: int, rate: int) -> int:
    return amount * rate


def total(values: list[int]) -> int:
    result = 0
    for value in values:
        result += value
    return result


def describe(thing):
    return str(thing)


def jitter(x: int) -> int:
    return x + random.randint(0, 10**6)


def coin(x: int) -> int:
    return x


def tally(words: list[str]) -> dict[str, int]:
    counts = {}
    for word in words:
        counts[word] = counts.get(word, 0) + 1
    return counts


def withdraw(balance: int, amount: int) -> int:
    if amount > balance:
        raise ValueError("insufficient funds")
    return balance - amount
"""

HEAD = """import random

_memo = {}


def clamp(x: int, lo: int, hi: int) -> int:
    if x > hi:
        return lo
    if x < lo:
        return lo
    return x


def is_adult(age: int) -> bool:
    return age > 18


def scaled(value: int, factor: int = 3) -> int:
    return value * factor


def parse_port(text: str) -> int:
    if not text.isdigit():
        raise TypeError(text)
    return int(text)


def greeting(name: str) -> str:
    return "Hi, " + name


def price(amount: int, rate: int) -> int:
    if amount not in _memo:
        _memo[amount] = amount * rate
    return _memo[amount]


def total(values: list[int]) -> int:
    return sum(values)


def describe(thing):
    return f"{thing}"


def jitter(x: int) -> int:
    return x + random.randint(1, 10**6)


def coin(x: int) -> int:
    return x + random.randint(1, 10**6)


def tally(words: list[str]) -> dict[str, int]:
    return {word: words.count(word) for word in sorted(set(words))}


def withdraw(balance: int, amount: int) -> int:
    return balance - amount
"""

TESTS = """from pkg.calc import clamp, total


def test_clamp():
    assert clamp(5, 0, 10) == 5
    assert clamp(-3, 0, 10) == 0


def test_total():
    assert total([1, 2, 3]) == 6
"""

NAMES = (
    "clamp",
    "is_adult",
    "scaled",
    "parse_port",
    "greeting",
    "price",
    "total",
    "describe",
    "jitter",
    "coin",
    "tally",
    "withdraw",
)
LITERALS = {"is_adult": ("18",), "scaled": ("2", "3"), "greeting": ('"Hello, "', '"Hi, "')}


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FunctionBehaviour]:
    path = tmp_path_factory.mktemp("families") / "repo"
    files = {"pkg/__init__.py": "", "tests/test_calc.py": TESTS}
    repo, base, head = build(path, {**files, "pkg/calc.py": BASE}, {"pkg/calc.py": HEAD})
    return compare(
        repo,
        base,
        head,
        same_place("pkg/calc.py", *NAMES, literals=LITERALS),
        tests=("tests/test_calc.py::test_clamp", "tests/test_calc.py::test_total"),
    )


def _texts(result: FunctionBehaviour) -> list[str]:
    return [str(d) for d in result.differences]


def test_boundary_flip_is_found_at_the_literal(found: dict[str, FunctionBehaviour]) -> None:
    result = found["is_adult"]
    assert result.verdict == "differs", result
    assert _texts(result) == ["is_adult(18): base True, head False"]


def test_clamp_difference_is_shrunk_and_recorded_calls_count(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["clamp"]
    assert result.verdict == "differs", result
    assert 1 <= len(result.differences) <= 3
    for difference in result.differences:
        assert difference.call.startswith("clamp(") and difference.base != difference.head
    assert dict(result.sources)["recorded"] == 2  # clamp(5, 0, 10) and clamp(-3, 0, 10)
    assert dict(result.sources)["hypothesis"] > 0


def test_changed_default_argument_is_found(found: dict[str, FunctionBehaviour]) -> None:
    result = found["scaled"]
    assert result.verdict == "differs", result
    assert "scaled(1): base 2, head 3" in _texts(result)


def test_changed_exception_type_is_found(found: dict[str, FunctionBehaviour]) -> None:
    result = found["parse_port"]
    assert result.verdict == "differs", result
    assert "parse_port(''): base raises ValueError, head raises TypeError" in _texts(result)


def test_string_constant_change_is_found(found: dict[str, FunctionBehaviour]) -> None:
    result = found["greeting"]
    assert result.verdict == "differs", result
    assert "greeting(''): base 'Hello, ', head 'Hi, '" in _texts(result)


def test_cache_ignoring_an_argument_is_found_in_a_sequence(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["price"]
    assert result.verdict == "differs", result
    assert all("; price(" in d.call for d in result.differences), _texts(result)
    assert dict(result.sources)["sequences"] > 0


def test_refactor_is_same_with_the_inputs_counted(found: dict[str, FunctionBehaviour]) -> None:
    result = found["total"]
    assert result.verdict == "same", result
    assert result.differences == () and result.reason == ""
    assert result.inputs_tried == sum(n for _, n in result.sources) >= 30
    assert dict(result.sources)["recorded"] == 1


def test_a_refactor_that_builds_a_dict_in_another_order_is_same(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["tally"]
    assert result.verdict == "same", result


def test_a_deleted_guard_is_found(found: dict[str, FunctionBehaviour]) -> None:
    result = found["withdraw"]
    assert result.verdict == "differs", result
    assert "withdraw(0, 1): base raises ValueError, head -1" in _texts(result)


def test_unstrategisable_parameter_is_not_compared(found: dict[str, FunctionBehaviour]) -> None:
    result = found["describe"]
    assert result.verdict == "not-compared"
    assert "no strategy for parameter thing (no annotation)" in result.reason
    assert result.inputs_tried == 0


def test_non_deterministic_function_is_not_a_difference(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["jitter"]
    assert result.verdict == "not-compared", result
    assert result.reason.startswith("non-deterministic at "), result.reason
    assert result.differences == ()


def test_a_head_that_varies_but_never_agrees_differs(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["coin"]
    assert result.verdict == "differs", result
    assert all(" or " in d.head for d in result.differences), _texts(result)


def test_every_function_reports_cpu(found: dict[str, FunctionBehaviour]) -> None:
    assert all(r.seconds > 0 for r in found.values())


def test_same_seed_same_report(tmp_path: Path) -> None:
    repo, base, head = build(
        tmp_path / "repo",
        {"pkg/__init__.py": "", "pkg/calc.py": BASE},
        {"pkg/calc.py": HEAD},
    )
    functions = same_place("pkg/calc.py", "clamp", "scaled", literals=LITERALS)

    def strip(found: dict[str, FunctionBehaviour]) -> list[tuple[object, ...]]:
        return [(r.verdict, r.inputs_tried, r.sources, r.differences) for r in found.values()]

    first = compare(repo, base, head, functions, seed=7, max_examples=30)
    second = compare(repo, base, head, functions, seed=7, max_examples=30)
    assert strip(first) == strip(second)
    assert first["clamp"].verdict == "differs"
