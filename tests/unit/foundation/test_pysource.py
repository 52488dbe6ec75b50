"""Parsing a diff's Python files: too deep to walk is refused as unreadable, never a RecursionError."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.pysource import MAX_DEPTH, TooDeep, depth, parse


def _chain(terms: int) -> str:
    return "x = " + " + ".join(["a"] * terms) + "\n"


def test_an_ordinary_module_parses_as_ast_parse_does() -> None:
    source = "def f(x):\n    return [y * 2 for y in x if y]\n"
    assert ast.dump(parse(source, "m.py")) == ast.dump(ast.parse(source))


@pytest.mark.parametrize("terms", [MAX_DEPTH + 10, 1000, 3000])
def test_a_chain_too_deep_to_walk_is_a_syntax_error_naming_the_file(terms: int) -> None:
    # 1000 terms parse and then break every recursive walk; 3000 break the parser itself
    with pytest.raises(TooDeep) as caught:
        parse(_chain(terms), "pkg/deep.py")
    assert isinstance(caught.value, SyntaxError) and caught.value.filename == "pkg/deep.py"


def test_a_file_python_cannot_parse_is_a_plain_syntax_error() -> None:
    with pytest.raises(SyntaxError) as caught:
        parse("def f(:\n", "bad.py")
    assert not isinstance(caught.value, TooDeep)


@given(st.integers(1, 60))
def test_depth_counts_levels_without_recursion(levels: int) -> None:
    source = "x = " + "[" * levels + "]" * levels + "\n"
    # Module > Assign > List ... > Load: the innermost list's context sits `levels` + 3 down
    assert depth(ast.parse(source)) == levels + 3
    assert depth(ast.parse(source), limit=3) == 4  # counting stops past the limit


def _recursive_depth(node: ast.AST) -> int:
    return 1 + max((_recursive_depth(child) for child in ast.iter_child_nodes(node)), default=0)


def test_depth_agrees_with_a_recursive_count_on_lanegate_own_modules() -> None:
    import lanegate

    root = Path(lanegate.__file__).parent
    files = sorted(root.rglob("*.py"))
    assert len(files) > 50
    for path in files:
        tree = ast.parse(path.read_bytes())
        assert depth(tree) == _recursive_depth(tree), path
