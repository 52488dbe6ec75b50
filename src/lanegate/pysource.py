"""Python source as lanegate reads a diff's files: parsed, and refused when too deep to walk.

Every analysis of a parsed file (mutation operators, the oracle check, the introspection scan, the
flake lane's risk scan) walks the syntax tree recursively, so a file whose expressions nest past the
interpreter's recursion limit (`x = a + a + ... + a` with a thousand terms parses, then no walk of
it returns) would end a lane in a `RecursionError`. `parse` turns that, the parser's own
`RecursionError` and `MemoryError` into the `SyntaxError` every caller already handles for a file
Python cannot read: no analysis of such a file is attempted, and the lanes report it as unreadable.

`as_utf8` gives the bytes the property lane plants in: a syntax tree's columns count UTF-8 bytes of
the decoded text, so a file declared in another encoding (`# -*- coding: latin-1 -*-`) is planted
in, and its mutants served, as the same text in UTF-8 with the declaration saying so.
"""

from __future__ import annotations

import ast
import codecs
import io
import re
import tokenize

__all__ = ["MAX_DEPTH", "TooDeep", "as_utf8", "depth", "parse"]

# Nesting levels (syntax tree nodes from the module down) lanegate walks; the recursion limit of
# 1000 frames leaves room for about two frames per level plus the caller's. Hand-written code stays
# far below it (CPython's parser refuses 200 nested parentheses itself).
MAX_DEPTH = 200


# PEP 263's declaration, on one of a file's first two lines
_DECLARATION = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class TooDeep(SyntaxError):
    """A file Python may well run, but that nests too deep for lanegate to walk."""


def depth(tree: ast.AST, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of `tree`, counted level by level without recursion; stops counting past
    `limit`."""
    level: list[ast.AST] = [tree]
    deepest = 0
    while level:
        deepest += 1
        if deepest > limit:
            return deepest
        below: list[ast.AST] = []
        for node in level:
            for name in node._fields:
                value = getattr(node, name, None)
                if isinstance(value, ast.AST):
                    below.append(value)
                elif isinstance(value, list):
                    below.extend(item for item in value if isinstance(item, ast.AST))
        level = below
    return deepest


def parse(source: str | bytes, filename: str = "<unknown>") -> ast.Module:
    """`ast.parse(source, filename)`, raising SyntaxError (naming the file) for a file Python
    cannot parse, and its subclass `TooDeep` for one that exhausts the parser or nests deeper than
    `MAX_DEPTH`."""
    try:
        tree = ast.parse(source, filename=filename)
    except (RecursionError, MemoryError) as exc:
        raise TooDeep(
            f"too deeply nested to parse ({type(exc).__name__})", (filename, 1, 0, "")
        ) from None
    if depth(tree) > MAX_DEPTH:
        raise TooDeep(f"nests deeper than {MAX_DEPTH} levels", (filename, 1, 0, ""))
    return tree


def as_utf8(source: bytes) -> bytes:
    """`source` as UTF-8 bytes of the same text, with a declaration of another encoding rewritten
    to `utf-8` (same lines, same code). A UTF-8 (or undeclared) file, and one whose bytes do not
    decode as it declares (Python cannot import it either), come back unchanged."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        if codecs.lookup(encoding).name in ("utf-8", "utf-8-sig"):
            return source
        text = source.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return source
    lines = _LINE.findall(text)
    for index, line in enumerate(lines[:2]):
        found = _DECLARATION.match(line)
        if found:
            lines[index] = line[: found.start(1)] + "utf-8" + line[found.end(1) :]
            return "".join(lines).encode("utf-8")
    return source
