"""Depth-bounded parsing of Python and TOML: a file nested deeper than lanegate reads is a typed error
(a finding naming the file, never an internal error), and every tree a rule walks is shallow enough
for the rules' few recursive helpers (dotted names) to stay far from the interpreter's limit."""

from __future__ import annotations

import ast
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
        tree = ast.parse(text, filename=filename)
    except (RecursionError, MemoryError) as exc:
        raise TooDeep(f"nested too deeply to parse ({type(exc).__name__})") from None
    try:
        return PyTree(tree, MAX_AST_DEPTH)
    except TooDeepTree:
        raise TooDeep(f"nested more than {MAX_AST_DEPTH} levels deep") from None


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
