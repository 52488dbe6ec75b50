"""Parsing a diff's Python files: too deep to walk is refused as unreadable, never a RecursionError."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.pysource import MAX_DEPTH, TooDeep, as_utf8, depth, parse


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


LATIN1_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=255, exclude_characters="\\'"))


@given(LATIN1_TEXT, st.sampled_from(["latin-1", "iso-8859-15", "cp1252"]), st.booleans())
def test_as_utf8_keeps_the_text_and_says_utf8(word: str, encoding: str, second_line: bool) -> None:
    try:
        body = f"WORD = '{word}'\nCOUNT = len(WORD) + 1\n".encode(encoding)
    except UnicodeEncodeError:
        return  # a character the codec lacks (cp1252 has no 0x81, ...)
    declaration = f"# -*- coding: {encoding} -*-\n".encode()
    source = (b"#!/usr/bin/env python\n" if second_line else b"") + declaration + body
    out = as_utf8(source)
    assert out.count(b"\n") == source.count(b"\n")  # the same lines
    assert b"coding: utf-8" in out and out.decode("utf-8")  # valid UTF-8, declared so
    names: dict[str, object] = {}
    exec(compile(out, "m.py", "exec"), names)  # noqa: S102
    assert names["WORD"] == word and names["COUNT"] == len(word) + 1


@pytest.mark.parametrize(
    "source",
    [
        b"x = 'caf\xc3\xa9'\n",  # UTF-8, undeclared
        b"# coding: utf-8\nx = 'caf\xc3\xa9'\n",
        b"\xef\xbb\xbfx = 1\n",  # a byte order mark
        b"# coding: latin-1\nx = '\xe9'\n".replace(b"latin-1", b"no-such-codec"),
        b"# coding: ascii\nx = '\xe9'\n",  # bytes the declaration cannot decode
    ],
)
def test_as_utf8_leaves_utf8_and_unreadable_files_alone(source: bytes) -> None:
    assert as_utf8(source) is source
