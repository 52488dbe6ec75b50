"""Call probes (`lanes/property/probes.py`) record what the call tracer recorded, for a fraction of
its cost: checked on the standard library's own sources, and on real pytest runs in the sandbox that
record the same repository once with each tracer."""

from __future__ import annotations

import dis
import sysconfig
import textwrap
import types
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.property.baseline import run_baseline
from lanegate.lanes.property.probes import PROBE, instrument
from lanegate.policy import load_policy
from lanegate.sandbox import open_sandbox

_COMPREHENSIONS = frozenset({"<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>"})
_STDLIB = Path(sysconfig.get_paths()["stdlib"])
STDLIB_FILES = sorted(_STDLIB.glob("*.py")) + sorted(_STDLIB.glob("*/*.py"))


def _codes(code: types.CodeType) -> list[types.CodeType]:
    out = [code]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out.extend(_codes(const))
    return out


def _probe_line(code: types.CodeType) -> int | None:
    """The first line the code object's own probe call reports (None: it has none)."""
    ops = list(dis.get_instructions(code))
    for i, op in enumerate(ops):
        if op.opname in ("LOAD_GLOBAL", "LOAD_NAME") and op.argval == PROBE:
            consts = [o.argval for o in ops[i + 1 : i + 4] if o.opname == "LOAD_CONST"]
            return int(consts[1]) if len(consts) > 1 else None
    return None


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(STDLIB_FILES))
def test_probes_keep_every_code_object_and_report_its_first_line(path: Path) -> None:
    source = path.read_bytes()
    try:
        plain = compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError:  # the standard library's deliberately broken test inputs
        return
    probed = instrument(source, str(path), 7)
    key = [(c.co_name, c.co_firstlineno) for c in _codes(plain)]
    assert sorted(key) == sorted((c.co_name, c.co_firstlineno) for c in _codes(probed))
    for code in _codes(probed):
        if code.co_name in _COMPREHENSIONS:
            assert _probe_line(code) is None
        elif code.co_name != "<module>" or _probe_line(code) is not None:
            assert _probe_line(code) == code.co_firstlineno, (path, code.co_name)


def test_docstrings_future_imports_and_line_numbers_are_unchanged() -> None:
    source = textwrap.dedent(
        '''\
        """The module's docstring."""
        from __future__ import annotations

        import inspect


        def f(x: int) -> int:
            """f's docstring."""
            return g(x)


        def g(x):
            return inspect.currentframe().f_lineno


        class C:
            """C's docstring."""

            def m(self) -> list[int]:
                return [1]
        '''
    ).encode()
    seen: list[tuple[int, int]] = []
    namespace: dict[str, object] = {"__name__": "probed"}
    import builtins

    setattr(builtins, PROBE, lambda index, line: seen.append((index, line)))
    try:
        exec(instrument(source, "probed.py", 3), namespace)
        assert namespace["__doc__"] == "The module's docstring."
        f = namespace["f"]
        assert f.__doc__ == "f's docstring."  # type: ignore[attr-defined]
        assert f.__annotations__ == {"x": "int", "return": "int"}  # type: ignore[attr-defined]
        assert namespace["C"].__doc__ == "C's docstring."  # type: ignore[attr-defined]
        seen.clear()
        assert f(1) == 13  # type: ignore[operator]  # g's own line, as written
        assert seen == [(3, 7), (3, 12)]
    finally:
        delattr(builtins, PROBE)


TARGET = """\
import asyncio
import functools
import types
from concurrent.futures import ThreadPoolExecutor


def plain(x):
    return x + 1


def deco(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)

    return wrapper


@deco
def decorated(x):
    return x * 2


def outer(x):
    def inner(y):
        return y - 1

    return inner(x)


square = lambda x: x * x  # noqa: E731


def gen(n):
    yield from range(n)


async def coro(x):
    await asyncio.sleep(0)
    return x


class Box:
    def __init__(self, v):
        self.v = v

    @property
    def doubled(self):
        return self.v * 2

    @staticmethod
    def make(v):
        return Box(v)


def threaded(x):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(in_thread, x).result()


def in_thread(x):
    return x + 100


def copied(x):
    return x


rebound = types.FunctionType(copied.__code__, {"__builtins__": __builtins__}, "rebound")


def never():
    return 0
"""

TESTS = """\
import asyncio

import target


def test_plain():
    assert target.plain(1) == 2


def test_decorated():
    assert target.decorated(2) == 4


def test_nested():
    assert target.outer(3) == 2


def test_lambda():
    assert target.square(3) == 9


def test_generator():
    assert list(target.gen(2)) == [0, 1]


def test_coroutine():
    assert asyncio.run(target.coro(5)) == 5


def test_methods():
    assert target.Box.make(2).doubled == 4


def test_thread():
    assert target.threaded(1) == 101


def test_rebound():
    assert target.rebound(9) == 9


def test_nothing():
    assert True
"""


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "target.py").write_text(TARGET, encoding="utf-8")
    (repo / "tests" / "test_target.py").write_text(TESTS, encoding="utf-8")
    return repo


def _record(repo: Path, tracer: str) -> dict[str, object]:
    baseline = run_baseline(
        repo,
        load_policy(repo),
        [repo / "target.py"],
        selection=["tests"],
        sandbox=open_sandbox(repo),
        extra_flags=[f"--lanegate-tracer={tracer}"],
    )
    return baseline.record


def _covered(record: dict[str, object]) -> dict[str, set[int]]:
    tests = record["tests"]
    assert isinstance(tests, dict)
    out = {}
    for node, entry in tests.items():
        assert entry["outcome"] == "passed", (node, entry)
        out[node.split("::")[-1]] = {int(c.rpartition(":")[2]) for c in entry["covered"]}
    return out


def test_probes_record_what_the_call_tracer_records(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    calls, probes = _record(repo, "calls"), _record(repo, "probes")
    assert (calls["tracer"], probes["tracer"]) == ("calls", "probes")
    assert probes["unprobed"] == []
    lines = TARGET.splitlines()

    def line(text: str) -> int:
        return next(i for i, ln in enumerate(lines, 1) if ln.startswith(text))

    by_calls, by_probes = _covered(calls), _covered(probes)
    assert by_probes == by_calls
    assert by_probes["test_plain"] == {line("def plain")}
    # a decorated function starts at its decorator, as its code object does
    assert by_probes["test_decorated"] == {line("@deco"), line("    @functools.wraps")}
    assert line("    def inner") in by_probes["test_nested"]
    assert by_probes["test_lambda"] == {line("square")}
    assert by_probes["test_generator"] == {line("def gen")}
    assert by_probes["test_coroutine"] == {line("async def coro")}
    assert {line("    def doubled") - 1, line("    def make") - 1} <= by_probes["test_methods"]
    assert line("def in_thread") in by_probes["test_thread"]  # called from a pool thread
    assert by_probes["test_rebound"] == {line("def copied")}  # other globals find the probe
    assert by_probes["test_nothing"] == set()


def test_a_target_imported_before_the_probes_is_traced_and_one_loaded_aside_is_reported(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    # a plugin of the repository imports the target before the lane's probes could be installed
    (repo / "early_plugin.py").write_text("import target  # noqa: F401\n", encoding="utf-8")
    baseline = run_baseline(
        repo,
        load_policy(repo),
        [repo / "target.py"],
        selection=["tests", "-p", "early_plugin"],
        sandbox=open_sandbox(repo),
        extra_flags=["--lanegate-tracer=probes"],
    )
    assert baseline.record["tracer"] == "calls"
    assert _covered(baseline.record)["test_plain"] == {
        TARGET.splitlines().index("def plain(x):") + 1
    }
    # code that loads the target by a loader of its own runs it unprobed: the record says so
    (repo / "tests" / "test_aside.py").write_text(
        "import importlib.util\n\n\ndef test_aside():\n"
        "    spec = importlib.util.spec_from_file_location('aside', 'target.py')\n"
        "    module = importlib.util.module_from_spec(spec)\n"
        "    spec.loader.exec_module(module)\n"
        "    import sys\n\n    sys.modules['aside'] = module\n"
        "    assert module.plain(1) == 2\n",
        encoding="utf-8",
    )
    record = _record(repo, "probes")
    assert record["tracer"] == "probes"
    assert record["unprobed"] == [str((repo / "target.py").resolve())]


@pytest.mark.parametrize("tracer", ["calls", "probes"])
def test_either_tracer_leaves_the_tests_outcomes_alone(tmp_path: Path, tracer: str) -> None:
    repo = _repo(tmp_path)
    (repo / "tests" / "test_fails.py").write_text(
        "import target\n\n\ndef test_fails():\n    assert target.plain(1) == 3\n", encoding="utf-8"
    )
    tests = _record(repo, tracer)["tests"]
    assert isinstance(tests, dict)
    assert tests["tests/test_fails.py::test_fails"]["outcome"] == "failed"
    assert (
        tests["tests/test_fails.py::test_fails"]["detail"]
        == "tests/test_fails.py:5: AssertionError"
    )


def test_a_probed_file_is_read_as_python_reads_it_and_a_broken_one_fails_as_without_probes(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    # a declared encoding: the probes compile the bytes, so the cookie still decides the text
    (repo / "target.py").write_bytes(
        b"# -*- coding: latin-1 -*-\n\n\ndef plain(x):\n    return x + len('\xe9') - 1 + 1\n"
    )
    (repo / "tests" / "test_target.py").write_text(
        "import target\n\n\ndef test_plain():\n    assert target.plain(1) == 2\n", encoding="utf-8"
    )
    calls, probes = _record(repo, "calls"), _record(repo, "probes")
    assert _covered(calls) == _covered(probes) == {"test_plain": {4}}
    # a file that does not parse: the importing test module fails to collect either way
    (repo / "target.py").write_text("def plain(x)\n    return x\n", encoding="utf-8")
    for tracer in ("calls", "probes"):
        record = _record(repo, tracer)
        assert record["collect_errors"] == ["tests/test_target.py"], (tracer, record)
        assert record["tests"] == {}


_COUNTS_OBJECTS = """import gc

import target


def test_calls_leave_no_object_behind():
    gc.collect()
    before = len(gc.get_objects())
    for x in range(3):
        target.plain(x)
        target.copied(x)
    after = len(gc.get_objects())
    assert after == before, after - before
"""


@pytest.mark.parametrize("tracer", ["probes", "calls"])
def test_a_test_that_counts_live_objects_sees_nothing_the_tracing_made(
    tmp_path: Path, tracer: str
) -> None:
    # the base suite's outcomes come from its traced run: a recorded call (a probe compiled into
    # the code under test, or the call tracer) must allocate nothing the test can count, or a base
    # test judging the head would fail for lanegate
    repo = _repo(tmp_path)
    (repo / "tests" / "test_target.py").write_text(_COUNTS_OBJECTS, encoding="utf-8")
    record = _record(repo, tracer)
    assert record["tracer"] == tracer
    entry = record["tests"]["tests/test_target.py::test_calls_leave_no_object_behind"]  # type: ignore[index]
    assert entry["outcome"] == "passed", entry
    lines = TARGET.splitlines()
    assert {int(c.rpartition(":")[2]) for c in entry["covered"]} == {
        lines.index("def plain(x):") + 1,
        next(i for i, ln in enumerate(lines, 1) if ln.startswith("def copied")),
    }
