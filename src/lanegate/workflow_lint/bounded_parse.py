"""Depth-bounded parsing of Python and TOML: a file nested deeper than lanegate reads is a typed error
(a finding naming the file, never an internal error), and every tree a rule walks is shallow enough
for the rules' few recursive helpers (dotted names) to stay far from the interpreter's limit."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from typing import Any

from lanegate.workflow_lint.pytree import PyTree, TooDeepTree

# deeper than any real test module (CPython allows 20 nested blocks, ~200 nested brackets)
MAX_AST_DEPTH = 400


class TooDeep(ValueError):
    """A source nested deeper than lanegate reads."""


def parse_python_tree(text: str, filename: str = "<unknown>") -> PyTree:
    """`ast.parse`, bounded, and the module walked once (PyTree): raises SyntaxError for invalid
    Python and TooDeep for a tree the parser cannot build (RecursionError, MemoryError) or one more
    than MAX_AST_DEPTH levels deep."""
    try:
        try:
            tree = ast.parse(text, filename=filename)
        except SyntaxError:
            older = _without_type_parameters(text)
            if older is None:
                raise
            try:
                tree = ast.parse(older, filename=filename)
            except SyntaxError:
                tree = ast.parse(text, filename=filename)  # the original error, reported as is
    except (RecursionError, MemoryError) as exc:
        raise TooDeep(f"nested too deeply to parse ({type(exc).__name__})") from None
    try:
        return PyTree(tree, MAX_AST_DEPTH)
    except TooDeepTree:
        raise TooDeep(f"nested more than {MAX_AST_DEPTH} levels deep") from None


# PEP 695 (Python 3.12): `def f[T](...)`, `class C[T]:`, `type Alias[T] = ...`
_GENERIC_HEADER = re.compile(
    r"^[ \t]*(?:async[ \t]+def|def|class)[ \t]+\w+[ \t]*(\[)", re.MULTILINE
)
_TYPE_ALIAS = re.compile(r"^([ \t]*)(type[ \t]+)([A-Za-z_]\w*)(?=[ \t]*[\[=])", re.MULTILINE)


def _without_type_parameters(text: str) -> str | None:
    """`text` with Python 3.12's type parameter lists blanked (spaces, newlines kept, so lines and
    most columns stay) and `type X = ...` made a plain assignment, so the 3.11 parser reads a
    module of newer syntax; None when the interpreter knows that syntax or the text has none."""
    if sys.version_info >= (3, 12):
        return None
    chars = list(text)
    found = False
    for match in _GENERIC_HEADER.finditer(text):
        found = True
        _blank_brackets(text, chars, match.start(1))
    for match in _TYPE_ALIAS.finditer(text):
        found = True
        head, keyword, name = match.start(2), match.group(2), match.group(3)
        chars[head : match.end(3)] = list(name + " " * len(keyword))
        after = match.end(3)
        while after < len(text) and text[after] in " \t":
            after += 1
        if after < len(text) and text[after] == "[":
            _blank_brackets(text, chars, after)
    return "".join(chars) if found else None


def _blank_brackets(text: str, chars: list[str], start: int) -> None:
    """Blank the bracketed span opening at `start` (nested brackets followed; newlines kept)."""
    depth = 0
    for index in range(start, len(text)):
        ch = text[index]
        depth += ch in "[("
        depth -= ch in "])"
        if ch != "\n":
            chars[index] = " "
        if depth == 0:
            return


def parse_python(text: str, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse`, bounded (see parse_python_tree)."""
    return parse_python_tree(text, filename).module


def parse_toml(text: str) -> dict[str, Any]:
    """`tomllib.loads`, bounded: raises tomllib.TOMLDecodeError for invalid TOML and TooDeep for
    arrays or inline tables nested past what its recursive parser reaches."""
    try:
        return tomllib.loads(text)
    except (RecursionError, MemoryError) as exc:
        raise TooDeep(f"nested too deeply to parse ({type(exc).__name__})") from None
