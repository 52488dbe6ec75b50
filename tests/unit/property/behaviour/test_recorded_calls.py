"""Calls as the tests made them: a default left out stays left out (each version uses its own),
slow calls a test makes cannot starve the drawn inputs, and calls whose arguments cannot be
carried are named as such (one engine run, real sandbox)."""

from __future__ import annotations

import pytest

from lanegate.lanes.property.behaviour import FunctionBehaviour
from tests.unit.property.behaviour.repos import build, compare, same_place

BASE = """import time


def price(amount, currency="EUR"):
    return f"{amount} {currency}"


def halve(n: int) -> int:
    if n > 10**6:
        time.sleep(5)
    return n // 2


def weekday(day):
    return day.weekday()
"""

HEAD = (
    BASE.replace('currency="EUR"', 'currency="USD"')
    .replace("return n // 2", "return int(n / 2)")
    .replace("return day.weekday()", "return day.isoweekday() - 1")
)

TESTS = """import datetime

from pkg.shop import halve, price, weekday


def test_price():
    assert price(10).startswith("10 ")


def test_halve_big_numbers():
    assert halve(10**7) == halve(10**7 + 1)
    assert halve(2 * 10**7) == 10**7
    assert halve(3 * 10**7) == 15 * 10**6


def test_weekday():
    assert weekday(datetime.date(2024, 1, 1)) == 0
"""


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FunctionBehaviour]:
    path = tmp_path_factory.mktemp("recorded") / "repo"
    files = {"pkg/__init__.py": "", "pkg/shop.py": BASE, "tests/test_shop.py": TESTS}
    repo, base, head = build(path, files, {"pkg/shop.py": HEAD})
    functions = same_place("pkg/shop.py", "price", "halve", "weekday")
    return compare(repo, base, head, functions, tests=("tests/test_shop.py",), max_examples=20)


def test_a_default_the_test_left_out_is_each_versions_own(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["price"]
    assert result.verdict == "differs", result
    assert dict(result.sources)["recorded"] == 1  # price(10), currency left out
    assert "price(0): base '0 EUR', head '0 USD'" in [str(d) for d in result.differences]


def test_slow_calls_a_test_makes_do_not_starve_the_drawn_inputs(
    found: dict[str, FunctionBehaviour],
) -> None:
    result = found["halve"]
    assert result.verdict == "differs", result
    assert any(d.call.startswith("halve(-") for d in result.differences), result


def test_calls_that_cannot_be_carried_are_named(found: dict[str, FunctionBehaviour]) -> None:
    result = found["weekday"]
    assert result.verdict == "not-compared", result
    assert "called it 1 time(s) with arguments that cannot be carried" in result.reason
