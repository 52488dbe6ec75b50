"""The reference of `lanegate.oracles`, read from the module itself so that it cannot drift: each
oracle's signature (`inspect`), its summary (the docstring's first line) and its example (the
docstring's `Example:` line, which a test runs)."""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass

from lanegate import oracles

_EXAMPLE = re.compile(r"^\s*Example: `(.+)`\s*$", re.M)
_QUOTED_ANNOTATION = re.compile(r"(: |-> )'([^']*)'")


@dataclass(frozen=True, slots=True)
class OracleEntry:
    """One oracle as `lanegate oracles --list` shows it."""

    name: str
    signature: str
    summary: str
    example: str


def entries() -> list[OracleEntry]:
    """Every public oracle of `lanegate.oracles`, in `__all__`'s order."""
    found = []
    for name in oracles.__all__:
        function = getattr(oracles, name)
        doc = inspect.getdoc(function) or ""
        example = _EXAMPLE.search(doc)
        found.append(
            OracleEntry(
                name=name,
                signature=name + _QUOTED_ANNOTATION.sub(r"\1\2", str(inspect.signature(function))),
                summary=doc.splitlines()[0] if doc else "",
                example=example.group(1) if example else "",
            )
        )
    return found


def names() -> list[str]:
    """The oracles' names, for messages that list them."""
    return list(oracles.__all__)


def render() -> str:
    """The reference as text: signature, summary and example of each oracle."""
    lines = [
        "lanegate.oracles: call one on values that come from the test's own inputs "
        "(e.g. Hypothesis's); every new or changed test must. Your own oracle module: "
        "[properties] module in lanegate.toml.",
    ]
    for entry in entries():
        lines += ["", entry.signature, f"    {entry.summary}", f"    example: {entry.example}"]
    return "\n".join(lines) + "\n"
