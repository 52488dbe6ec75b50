"""TOML text a repository holds, parsed without letting its nesting end lanegate.

`tomllib` parses nested arrays and inline tables by recursion, so `a = [[[[...]]]]` a thousand levels
deep (a valid TOML document) ends its reader in a `RecursionError`. `loads` gives that the
`TOMLDecodeError` every caller already handles for a file it cannot read, saying what happened.
"""

from __future__ import annotations

import tomllib
from typing import Any

__all__ = ["loads"]


def loads(text: str) -> dict[str, Any]:
    """`tomllib.loads(text)`; nesting past the interpreter's recursion limit is a
    `tomllib.TOMLDecodeError` saying so."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(
            "arrays or inline tables nest too deep to parse (past Python's recursion limit)"
        ) from None
