"""The oracle guard: a test module whose oracle names were replaced in its process is named."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import lanegate.oracles
from lanegate.lanes.property.oracle_guard import OracleGuard


def _test_module(tmp_path: Path, name: str, source: str) -> ModuleType:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    module = ModuleType(name)
    module.__file__ = str(path)
    exec(compile(source, str(path), "exec"), vars(module))
    return module


ALIASED = "from lanegate.oracles import round_trip as rt, idempotent\n\ndef test_x():\n    pass\n"


def test_untouched_oracles_and_a_modules_own_helper_are_no_problem(tmp_path: Path) -> None:
    guard = OracleGuard(lanegate.oracles)
    aliased = _test_module(tmp_path, "test_aliased", ALIASED)
    own = _test_module(tmp_path, "test_own", "def round_trip(a, b, v):\n    return v\n")
    assert guard.problems([aliased, own]) == {}


def test_a_replaced_import_is_named_with_the_file_that_replaced_it(tmp_path: Path) -> None:
    guard = OracleGuard(lanegate.oracles)
    aliased = _test_module(tmp_path, "test_aliased", ALIASED)
    wrapper = _test_module(tmp_path, "codec", "def clipped(e, d, v):\n    return v\n").clipped
    aliased.rt = wrapper
    problems = guard.problems([aliased])
    assert list(problems) == [aliased.__file__]
    message = problems[str(aliased.__file__)]
    assert "rt (imported from lanegate.oracles.round_trip)" in message and "codec.py" in message


def test_a_rebound_oracle_module_fails_every_module_until_it_is_put_back(tmp_path: Path) -> None:
    guard = OracleGuard(lanegate.oracles)
    modules = [
        _test_module(tmp_path, "test_a", ALIASED),
        _test_module(tmp_path, "test_b", "def test_y():\n    pass\n"),
    ]
    original = lanegate.oracles.round_trip
    try:
        lanegate.oracles.round_trip = print  # type: ignore[assignment]
        problems = guard.problems(modules)
        assert set(problems) == {m.__file__ for m in modules}
        assert all("lanegate.oracles.round_trip was replaced" in p for p in problems.values())
    finally:
        lanegate.oracles.round_trip = original
    assert guard.problems(modules) == {}


def test_the_guard_holds_only_the_modules_public_functions() -> None:
    guard = OracleGuard(lanegate.oracles)
    assert {"round_trip", "idempotent", "monotonic"} <= set(guard.originals)
    assert not any(name.startswith("_") for name in guard.originals)
