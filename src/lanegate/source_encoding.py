"""Encoding declarations a diff adds or changes in Python files (PEP 263: `# coding: NAME`).

git's lines are the bytes' lines; Python's are the decoded text's. Under UTF-8 (Python's default) and
ASCII they are the same lines, so every line-based check (the diff's changed lines, the introspection
scan of them, mutant planting, restatement checks) sees what Python runs. Under a declaration such
as `coding: utf-7`, `+AAo-` inside what git shows as one comment line decodes to a line break:
a statement stands on a line git calls unchanged, and no line-based check sees it. Such a
declaration is reported (rule `source-encoding-declared`) rather than every line of the file
counted as changed: honest code needs none (UTF-8 is Python 3's default), and a file whose lines are
not git's lines cannot be planted in or judged line by line at all. A declaration the base already
had is the base's (reviewed) text and is left alone.
"""

from __future__ import annotations

import codecs
import io
import tokenize
from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.diff import Change, DiffSummary

__all__ = ["EncodingDeclaration", "declared", "scan_diff"]

PLAIN = frozenset({"utf-8", "ascii"})


@dataclass(frozen=True, slots=True)
class EncodingDeclaration:
    """A Python file of the diff whose declared encoding is not UTF-8 or ASCII, and was not the
    base's: `encoding` as declared (or why Python cannot read the declaration)."""

    path: str
    encoding: str
    before: str | None  # the base's encoding (None: the file is new at head)


def declared(source: bytes) -> str:
    """The codec Python reads `source` with (its normalized name: `utf-8`, `utf-7`, `iso8859-1`);
    a declaration Python refuses (unknown codec, a BOM against it) reads as `unreadable: WHY`."""
    try:
        name, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        return "utf-8" if name == "utf-8-sig" else codecs.lookup(name).name
    except (SyntaxError, LookupError) as exc:
        return f"unreadable: {exc}"


def scan_diff(repo: Path, summary: DiffSummary) -> tuple[EncodingDeclaration, ...]:
    """The diff's added or changed Python files (any role) that declare an encoding other than
    UTF-8 or ASCII the base did not declare for them; read at the head commit."""
    wanted = [f for f in summary.files if f.change is not Change.DELETED and f.path.endswith(".py")]
    git.prefetch_files(repo, ((summary.head_commit, f.path) for f in wanted))
    found = []
    for f in wanted:
        head = git.show_file(repo, summary.head_commit, f.path)
        if head is None:
            continue
        now = declared(head)
        if now in PLAIN:
            continue
        old = None
        if f.change is not Change.ADDED:
            base = git.show_file(repo, summary.merge_base, f.old_path or f.path)
            old = declared(base) if base is not None else None
        if now != old:
            found.append(EncodingDeclaration(f.path, now, old))
    return tuple(found)
