"""Mutation operators and diff-scoped planting: valid edits, no string noise, stable capped selection."""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.lanes.property import plan_mutants
from lanegate.lanes.property.operators import apply_edit, candidates, original_text
from lanegate.lanes.property.plant import MAX_PER_LINE, select, specs_for_file
from lanegate.lanes.property.revert import is_revert
from lanegate.policy import load_policy
from tests.gitrepo import Repo

TARGET = Path(__file__).resolve().parents[2] / "cases" / "property" / "target" / "ledgermath.py"

names = st.sampled_from(["a", "b", "xs[i]", "(a)", "f(a, 2)"])
ops = st.sampled_from(
    ["+", "-", "*", "//", "%", "<", "<=", "==", "!=", "and", "or", "is not", "in"]
)


@st.composite
def expressions(draw: st.DrawFn) -> str:
    parts = [draw(names)]
    for _ in range(draw(st.integers(1, 3))):
        parts += [draw(ops), draw(st.one_of(names, st.integers(0, 9).map(str)))]
    return " ".join(parts)


@settings(derandomize=True, max_examples=60)
@given(expressions())
def test_every_edit_compiles_and_changes_the_ast(expr: str) -> None:
    source = f"def f(a, b, xs, i):\n    if {expr}:\n        return {expr}  # {expr} < >\n    return 1\n".encode()
    tree = ast.parse(source)
    found = candidates(tree, source)
    assert found
    for cand in found:
        mutated = apply_edit(source, cand.edit)
        assert ast.dump(ast.parse(mutated)) != ast.dump(tree), cand
        assert cand.function_line == 1 and cand.function == "f"


def test_no_string_literal_or_docstring_or_logging_mutants() -> None:
    source = (
        b'"""mod doc"""\nimport logging\n\ndef f(x):\n    """doc 1"""\n'
        b'    logging.info("a %d", 1)\n    return f"{x + 1}" + "s"\n'
    )
    edits = [c.edit for c in candidates(ast.parse(source), source)]
    assert [(e.operator, original_text(source, e)) for e in edits] == [
        ("return-default", 'f"{x + 1}" + "s"')
    ]


def _repo(make_repo: Callable[[str], Repo]) -> Repo:
    repo = make_repo("lib")
    text = TARGET.read_text(encoding="utf-8")
    repo.write("ledgermath.py", text.replace("return x * 3", "return x"))
    repo.commit("base")
    repo.branch("feature")
    repo.write("ledgermath.py", text)
    repo.write("lanegate.toml", "[properties]\nmax_mutants = 40\n")
    repo.commit("change")
    return repo


def _repo_adding(
    make_repo: Callable[[str], Repo], name: str, policy: str, path: str, source: str
) -> Repo:
    """A repository whose base holds `policy` as lanegate.toml and whose feature branch adds
    `source` at `path`."""
    repo = make_repo(name)
    repo.write("README", "x")
    repo.write("lanegate.toml", policy)
    repo.commit("base")
    repo.branch("feature")
    repo.write(path, source)
    repo.commit("add")
    return repo


def test_plan_only_changed_lines_capped_and_stable(make_repo: Callable[[str], Repo]) -> None:
    repo = _repo(make_repo)
    policy = load_policy(repo.path)
    first = plan_mutants(repo.path, "main", policy, draw=5)
    second = plan_mutants(repo.path, "main", policy, draw=5)
    assert [m.id for m in first] == [m.id for m in second]
    changed = TARGET.read_text(encoding="utf-8").splitlines().index("    return x * 3") + 1
    # the changed function's revert (the base's version of it) is planted whole, from its `def`
    reverts = [m for m in first if is_revert(m.operator)]
    assert [m.operator for m in reverts] == ["revert"] and reverts[0].line < changed
    first = [m for m in first if not is_revert(m.operator)]
    assert first and {m.line for m in first} == {changed}
    # one changed line: past two per line only to the function's floor
    assert len(first) <= max(MAX_PER_LINE, policy.properties.min_mutants_per_function)
    assert all(m.id.startswith("m-") and len(m.id) == 18 for m in first)
    other_seed = plan_mutants(repo.path, "main", policy, seed=7, draw=5)
    assert {m.id for m in other_seed}.isdisjoint({m.id for m in first})


def test_plan_respects_max_mutants(make_repo: Callable[[str], Repo]) -> None:
    repo = make_repo("lib")
    repo.write("README", "x")
    repo.commit("base")
    repo.branch("feature")
    repo.write("ledgermath.py", TARGET.read_text(encoding="utf-8"))
    repo.write("tests/test_x.py", "def test_a():\n    assert 1 + 1 == 2\n")
    repo.write("lanegate.toml", "[properties]\nmin_mutants_per_function = 0\n")
    repo.commit("add")
    policy = load_policy(repo.path)
    planted = plan_mutants(repo.path, "main", policy, draw=0)
    assert len(planted) == policy.properties.max_mutants
    assert all(m.path == "ledgermath.py" for m in planted)
    per_line: dict[int, int] = {}
    for m in planted:
        per_line[m.line] = per_line.get(m.line, 0) + 1
    assert max(per_line.values()) <= MAX_PER_LINE


def _mutated_texts(source: bytes) -> list[tuple[str, str]]:
    return [
        (c.edit.operator, original_text(source, c.edit))
        for c in candidates(ast.parse(source), source)
    ]


def test_an_int_literal_that_only_sizes_a_worker_pool_is_arid() -> None:
    source = (
        b"import multiprocessing\n"
        b"from concurrent import futures\n"
        b"from concurrent.futures import ThreadPoolExecutor as Executor\n\n"
        b"def f(rows, n):\n"
        b"    with futures.ThreadPoolExecutor(max_workers=2) as pool:\n"
        b"        out = list(pool.map(g, rows, chunksize=4))\n"
        b"    with Executor(3) as pool:\n"
        b"        out += list(pool.map(g, rows))\n"
        b"    with multiprocessing.Pool(processes=5) as pool:\n"
        b"        out += pool.map(g, rows, 6)\n"
        b"    return out\n"
    )
    texts = {text for _, text in _mutated_texts(source)}
    assert not {"2", "3", "5"} & texts  # the standard library's pool sizes: equivalent mutants
    assert {"4", "6"} <= texts  # a chunk size: the receiver's type is not known, so mutated
    assert "out += list(pool.map(g, rows))" in texts  # the statements themselves still are


def test_pool_sizes_that_are_not_literals_or_other_calls_keep_their_mutants() -> None:
    source = (
        b"from concurrent.futures import ThreadPoolExecutor\n"
        b"from operator import index as ThreadPool\n\n"
        b"def f(rows, n):\n"
        b"    a = ThreadPoolExecutor(max_workers=n + 1)\n"  # an expression may do more than size
        b"    b = Pool(7)\n"  # a Pool the module never imported may be anyone's class
        b"    c = resize(max_workers=8)\n"
        b"    d = min(n, ThreadPool(12))\n"  # named like a pool, bound to something else
        b"    e = ThreadPoolExecutor(max_workers=1)\n"  # one worker serialises: behaviour
        b"    return a, b, c, d, e, rows.map(g, chunksize=9)\n"
    )
    texts = {text for _, text in _mutated_texts(source)}
    assert {"+", "7", "8", "12", "1", "9"} <= texts


def test_a_pool_imported_in_the_function_is_known_and_a_rebound_name_is_not() -> None:
    local = (
        b"def f(rows):\n"
        b"    from concurrent.futures import ThreadPoolExecutor\n"
        b"    with ThreadPoolExecutor(max_workers=2) as pool:\n"
        b"        return list(pool.map(g, rows))\n"
    )
    assert "2" not in {text for _, text in _mutated_texts(local)}
    rebound = (
        local + b"\n\ndef h(n):\n    ThreadPoolExecutor = int\n    return ThreadPoolExecutor(3)\n"
    )
    texts = {text for _, text in _mutated_texts(rebound)}
    assert {"2", "3"} <= texts  # the name is bound to something else somewhere: no exemption


def test_every_changed_function_gets_a_mutant_under_the_cap(
    make_repo: Callable[[str], Repo],
) -> None:
    # a long function with many mutable lines beside a short one: the cap (3) is below the long
    # function's line count, yet the short function is planted (SPEC 9: every changed function),
    # even with no per-function floor
    long_body = "".join(f"    x = x + {i}\n" for i in range(1, 12))
    source = f"def long(x):\n{long_body}    return x\n\n\ndef short(y):\n    return y * 2\n"
    for seed in range(6):
        policy = f"[properties]\nmax_mutants = 3\nmin_mutants_per_function = 0\nseed = {seed}\n"
        repo = _repo_adding(make_repo, f"fair{seed}", policy, "mod.py", source)
        planted = plan_mutants(repo.path, "main", load_policy(repo.path), draw=seed)
        assert len(planted) == 3
        assert {m.function for m in planted} == {"long", "short"}, seed


# one module of functions whose bodies are lines with 1-4 mutable operators each
_LINE_SHAPES = (
    "x = x + 1",
    "x = x * 2 - 3",
    "x = x if x < 4 else -x",
    "x = (x % 5 == 0) and x > 2",
)


@st.composite
def modules(draw: st.DrawFn) -> tuple[bytes, frozenset[int]]:
    """A module of 1-5 functions of 1-4 lines each, and a changed subset of its body lines."""
    lines = []
    body_lines: list[int] = []
    for f in range(draw(st.integers(1, 5))):
        lines.append(f"def f{f}(x):")
        for _ in range(draw(st.integers(1, 4))):
            lines.append(f"    {draw(st.sampled_from(_LINE_SHAPES))}")
            body_lines.append(len(lines))
        lines += ["    return x", ""]
    changed = draw(st.sets(st.sampled_from(body_lines), min_size=1))
    return ("\n".join(lines) + "\n").encode(), frozenset(changed)


@settings(derandomize=True, max_examples=80, deadline=None)
@given(modules(), st.integers(0, 20), st.integers(0, 6), st.integers(0, 2**62 - 1))
def test_every_function_gets_its_floor_and_the_plan_stays_bounded(
    module: tuple[bytes, frozenset[int]], cap: int, floor: int, draw: int
) -> None:
    source, changed = module
    specs = specs_for_file("m.py", source, changed, "d" * 64, 0)
    planted = select(specs, cap, draw, floor)
    assert planted == select(specs, cap, draw, floor)  # a function of the draw
    assert len({m.id for m in planted}) == len(planted)
    assert {m.id for m in planted} <= {s.id for s in specs}
    functions = {s.function for s in specs}
    for name in functions:
        own = [m for m in planted if m.function == name]
        candidates_of = [s for s in specs if s.function == name]
        assert len(own) >= min(floor, len(candidates_of)), (name, floor)
    assert len(planted) <= max(cap, floor * len(functions))
    beyond = [m for m in planted if sum(p.line == m.line for p in planted) > MAX_PER_LINE]
    # past two per line only to reach a function's floor
    for m in beyond:
        assert sum(p.function == m.function for p in planted) <= max(floor, MAX_PER_LINE)
    if floor == 0:
        assert len(planted) <= cap
    if cap >= len(specs) and floor <= MAX_PER_LINE:  # the cap does not bind: two of every line
        per_line = Counter(s.line for s in specs)
        assert len(planted) == sum(min(n, MAX_PER_LINE) for n in per_line.values())


def test_helpers_added_beside_a_function_cannot_crowd_its_mutants_out(
    make_repo: Callable[[str], Repo],
) -> None:
    # the dilution shape (tests/adversarial semantic/dilution-trivial-helpers): one changed line in
    # the function that matters, three one-line helpers, a cap of 4. Every draw plants all four
    # candidates of that line, so the draw cannot hand it only the mutants any test kills.
    source = (
        "def decode(parts):\n"
        "    return [c * min(n, 12) for n, c in parts]\n\n\n"
        "def double(n):\n    return n * 2\n\n\n"
        "def successor(n):\n    return n + 1\n\n\n"
        "def is_negative(n):\n    return n < 0\n"
    )
    repo = _repo_adding(make_repo, "dilute", "[properties]\nmax_mutants = 4\n", "codec.py", source)
    policy = load_policy(repo.path)
    for draw in range(8):
        planted = plan_mutants(repo.path, "main", policy, draw=draw)
        decode = [m for m in planted if m.function == "decode"]
        assert len(decode) == policy.properties.min_mutants_per_function == 4, draw
        assert {m.function for m in planted} == {"decode", "double", "successor", "is_negative"}
        assert len(planted) <= 4 * 4
    # without the floor the shared cap leaves decode one mutant: the crowding the floor stops
    repo.write("lanegate.toml", "[properties]\nmax_mutants = 4\nmin_mutants_per_function = 0\n")
    repo.commit("no floor")
    crowded = plan_mutants(repo.path, "main", load_policy(repo.path), draw=0)
    assert [m.function for m in crowded].count("decode") == 1


@pytest.mark.parametrize(
    ("annotation", "returned", "replacement"),
    [
        ("bool", "False", "True"),
        ("bool", "True", "False"),
        ("float", "0.0", "1.0"),
        ("str", "''", "' '"),
        ("list[int]", "[]", "[None]"),
        ("dict", "{}", "{None: None}"),
        ("tuple", "()", "(None,)"),
        ("list", "xs", "[]"),
    ],
)
def test_a_return_of_the_types_default_gets_a_value_that_differs(
    annotation: str, returned: str, replacement: str
) -> None:
    source = f"def f(xs) -> {annotation}:\n    if xs:\n        return {returned}\n    return xs\n".encode()
    edits = [c.edit for c in candidates(ast.parse(source), source)]
    defaults = [e for e in edits if e.operator == "return-default" and e.line == 3]
    assert [e.replacement for e in defaults] == [replacement]


def test_no_operator_proposes_its_original_text() -> None:
    # `return 0` in `-> int` and `return None` unannotated: the default is the value itself, and
    # an int's 0 already has its constant mutants (1 and -1); a None return gets `...`, a value no
    # caller takes for None (a blind project's `return None` guard had no mutant at all)
    source = b"def f(x) -> int:\n    return 0\n\ndef g(x):\n    return None\n"
    edits = [c.edit for c in candidates(ast.parse(source), source)]
    assert all(original_text(source, e) != e.replacement for e in edits)
    assert sorted((e.operator, e.replacement) for e in edits) == [
        ("constant-minus-one", "-1"),
        ("constant-plus-one", "1"),
        ("return-default", "..."),
    ]


def test_a_statement_over_several_lines_can_be_removed() -> None:
    source = b'def f(d):\n    text = (\n        f"{d}-x"\n    )\n    return text\n'
    removed = [
        c.edit
        for c in candidates(ast.parse(source), source)
        if c.edit.operator == "remove-statement"
    ]
    assert [(e.line, e.end_line) for e in removed] == [(2, 4)]
    assert apply_edit(source, removed[0]) == b"def f(d):\n    pass\n    return text\n"


def test_a_default_or_decorator_edit_counts_toward_the_def_it_parameterizes() -> None:
    # a default is evaluated where the def runs (module code), but it decides what the function does
    # when called: its mutants join the function's budget and floor, not a `<module>` of their own
    source = (
        b"import functools\n\n\n"
        b"class Box:\n"
        b"    @functools.lru_cache(maxsize=8)\n"
        b"    def pick(self, items, limit=3):\n"
        b"        return items[:limit]\n"
    )
    tree = ast.parse(source)
    found = {
        (original_text(source, c.edit), c.function, c.owner)
        for c in candidates(tree, source)
        if c.edit.operator.startswith("constant")
    }
    assert ("8", "<module>", "Box.pick") in found  # the code object is the module's (hotpatching)
    assert ("3", "<module>", "Box.pick") in found
    specs = specs_for_file("m.py", source, frozenset(range(1, 8)), "sha256:x", 0)
    assert {s.budget_function for s in specs} == {"Box.pick"}
    assert {s.function for s in specs if s.original in ("3", "8")} == {"<module>"}
