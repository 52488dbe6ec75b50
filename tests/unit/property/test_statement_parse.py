"""A mutant's edited statement parsed alone decides exactly what its whole module's parse decides.

The reference is the check planting made before (`ast.parse` and `compile` of the whole mutated
module, both trees dumped whole); the property throws hostile edits at modules built to trip the shortcut
(module-level `global`, `__future__` imports, statements sharing a line, strings spanning lines,
decorators, CRLF line ends) and requires the shortcut to agree whenever it answers, byte code
included. The plans themselves must not move: every candidate's verdict with and without it.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path
from types import CodeType

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from lanegate.lanes.property import canary
from lanegate.lanes.property.operators import Edit, apply_edit
from lanegate.lanes.property.plant import _compiled_tree, specs_for_file
from lanegate.lanes.property.statement_parse import ModuleStatements

TARGET = Path(__file__).resolve().parents[2] / "cases" / "property" / "target" / "ledgermath.py"

ORDINARY = (
    "def f(x):\n    y = x + 1\n    return y * 2\n",
    "@staticmethod\ndef g(a, b):\n    if a < b:\n        return a - b\n    return b\n",
    "class C:\n    k = 3\n\n    def m(self, v):\n        return v % self.k\n",
    "x = 1\n",
    "def h():\n    global x\n    x = x + 1\n    return x\n",
    "def k(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\n",
    "t = (1 +\n     2)\n",
    "def outer():\n    z = 1\n\n    def inner():\n        nonlocal z\n        z += 1\n"
    "        return z\n\n    return inner\n",
    "# a comment line\n",
    "\n",
    "lam = lambda q: q + 1 if q else -q\n",
    "async def co(v):\n    return await v\n",
)
TRICKY = (
    "a = 1; b = a + 2\n",
    "global x\n",
    "if x:\n    global y\n    y = 2\n",
    "s = '''one\ntwo + three\n'''\n",
    '"""A docstring."""\n',
)
PIECES = ORDINARY * 3 + TRICKY
FUTURE = "from __future__ import annotations\n"
SAFE = ("-", "+", "*", "//", "0", "1", "2", "<", "<=", "==", "not ", "pass", " ", "x", "q")
HOSTILE = (
    "(", ")", "'''", '"', "\\", "#", "\n", ";", ";global x", "global x", "nonlocal z", "yield",
    "return 1", "await v", "lambda: 0", ":", "\n    ", "\ndef late():\n    pass\n",
    "from __future__ import annotations",
)  # fmt: skip
REPLACEMENTS = SAFE * 2 + HOSTILE
LIKE = {
    tokenize.NAME: ("x", "q", "y", "not x", "yield", "global"),
    tokenize.NUMBER: ("0", "1", "2.5", "10**3"),
    tokenize.OP: ("+", "-", "*", "//", "<", "<=", "==", "(", ")", ",", ":", "="),
}


def _whole_verdict(source: bytes, mutated: bytes) -> bool:
    """The check planting made before: the mutated module compiles and its tree, dumped whole,
    differs from the module's."""
    tree = _compiled_tree(mutated, "m.py")
    return tree is not None and ast.dump(tree) != ast.dump(ast.parse(source))


def _codes(code: CodeType) -> dict[tuple[str, int], bytes]:
    out: dict[tuple[str, int], bytes] = {}
    stack = [code]
    while stack:
        current = stack.pop()
        out.setdefault((current.co_qualname, current.co_firstlineno), current.co_code)
        stack.extend(c for c in current.co_consts if isinstance(c, CodeType))
    return out


@st.composite
def _module_and_edit(draw: st.DrawFn) -> tuple[bytes, Edit]:
    pieces = draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=6))
    text = (FUTURE if draw(st.booleans()) else "") + "".join(pieces)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    source = text.encode()
    lines = source.splitlines(keepends=True)
    tokens = _tokens(source)
    if tokens and draw(st.booleans()):  # a token replaced by one of its kind: mostly valid
        line, start, end, kind = draw(st.sampled_from(tokens))
        replacement = draw(st.sampled_from(LIKE[kind]))
    else:  # any span of any line, anything in it: mostly invalid
        line = draw(st.integers(1, len(lines)))
        body = lines[line - 1].rstrip(b"\r\n")
        start = draw(st.integers(0, len(body)))
        end = draw(st.integers(start, len(body)))
        replacement = draw(st.sampled_from(REPLACEMENTS))
    return source, Edit("test", line, start, line, end, replacement)


def _tokens(source: bytes) -> list[tuple[int, int, int, int]]:
    """(line, start, end, kind) of every name, number and operator token on one line."""
    kinds = (tokenize.NAME, tokenize.NUMBER, tokenize.OP)
    try:
        found = list(tokenize.tokenize(io.BytesIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return []
    return [
        (t.start[0], t.start[1], t.end[1], t.type)
        for t in found
        if t.type in kinds and t.start[0] == t.end[0]
    ]


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@settings(max_examples=800, deadline=None)
@given(_module_and_edit())
def test_the_statement_alone_agrees_with_the_whole_module(case: tuple[bytes, Edit]) -> None:
    source, edit = case
    try:
        tree = ast.parse(source)
        compile(tree, "m.py", "exec", dont_inherit=True)
    except SyntaxError:
        return  # planting never mutates a module that does not compile
    mutated = apply_edit(source, edit)
    alone = ModuleStatements(source, tree).reparse(mutated, edit.line)
    code = None if alone is None else alone.code("m.py")
    if alone is None or code is None:
        event("whole module")
        return  # the caller checks the whole module
    verdict = _whole_verdict(source, mutated)
    event(f"statement alone: mutant {verdict}")
    assert (ast.dump(alone.node) != ast.dump(tree.body[alone.index])) == verdict
    whole = _codes(compile(mutated, "m.py", "exec", dont_inherit=True))
    for key, byte_code in _codes(code).items():
        if key[0] != "<module>":
            assert whole[key] == byte_code, key


def _bench_module() -> bytes:
    body = ["def f(x):", "    y = x"]
    body += [f"    y = ({b} + {a} * y) % 1000003" for a, b in ((3, 1), (4, 7), (5, 2))]
    return "\n".join([*body, "    return y", ""]).encode()


@pytest.mark.parametrize("source", [TARGET.read_bytes(), _bench_module()], ids=["target", "bench"])
def test_every_candidates_verdict_is_the_whole_modules(
    source: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = frozenset(range(1, source.count(b"\n") + 2))
    fast = specs_for_file("m.py", source, lines, "sha256:d", 0)
    fast_canaries = canary.canary_specs_for_file("m.py", source, lines, "sha256:d", 7)
    taken: list[int] = []
    real = ModuleStatements.reparse

    def counted(self: ModuleStatements, mutated: bytes, line: int) -> object:
        found = real(self, mutated, line)
        taken.append(found is not None)
        return found

    monkeypatch.setattr(ModuleStatements, "reparse", counted)
    specs_for_file("m.py", source, lines, "sha256:d", 0)
    assert sum(taken) > len(taken) // 2  # the shortcut is what answers on ordinary code
    monkeypatch.setattr(ModuleStatements, "reparse", lambda self, mutated, line: None)
    assert specs_for_file("m.py", source, lines, "sha256:d", 0) == fast
    assert canary.canary_specs_for_file("m.py", source, lines, "sha256:d", 7) == fast_canaries
    assert fast and fast_canaries


@pytest.mark.parametrize(
    "source, line",
    [
        (b"x = 1\nglobal x\ndef f():\n    return x + 1\n", 4),  # module-level global
        (b"from __future__ import annotations\nx = 1 + 2\n", 1),  # the future import itself
        (b'"""doc"""\nfrom __future__ import annotations\nx = 1\n', 1),  # before a future import
        (b"a = 1; b = a + 2\n", 1),  # statements sharing a line
        (b"# -*- coding: latin-1 -*-\nx = 1 + 2\n", 2),  # another encoding
    ],
)
def test_cases_it_cannot_vouch_for_go_to_the_whole_module(source: bytes, line: int) -> None:
    tree = ast.parse(source)
    mutated = source.replace(b"+", b"-", 1)
    assert ModuleStatements(source, tree).reparse(mutated, line) is None


def test_an_edit_that_declares_a_module_global_goes_to_the_whole_module() -> None:
    """`global x` compiles alone but not after `x = 1` in the same module scope."""
    source = b"x = 1\ny = 2\n"
    mutated = b"x = 1\nglobal x\n"
    assert _compiled_tree(mutated, "m.py") is None
    assert ModuleStatements(source, ast.parse(source)).reparse(mutated, 2) is None


def test_an_ordinary_function_body_edit_is_parsed_alone() -> None:
    source = b"from __future__ import annotations\n\n\ndef f(x: int) -> int:\n    return x + 1\n"
    tree = ast.parse(source)
    alone = ModuleStatements(source, tree).reparse(source.replace(b"x + 1", b"x - 1"), 5)
    assert alone is not None and alone.index == 1 and alone.node.lineno == 4
    assert alone.code("m.py") is not None
