"""Python files a diff adds or changes whose declared encoding (PEP 263: `# coding: NAME`) makes
Python's lines other than git's lines.

git's lines are the bytes split at line breaks; Python's are the decoded text's. Under UTF-8
(Python's default), ASCII, Latin-1 and every other encoding that decodes a line break byte to a
line break and nothing else to one, they are the same lines, so every line-based check (the diff's
changed lines, the introspection scan of them, mutant planting, restatement checks) sees what
Python runs. Under `coding: utf-7`, `+AAo-` inside what git shows as one comment line decodes to a
line break: a statement stands on a line git calls unchanged, and no line-based check sees it.

Such a file is reported (rule `source-encoding-declared`) rather than every line of it counted as
changed: a file whose lines are not git's lines cannot be planted in or judged line by line at all,
and honest code never needs one. The test is the file's own text, not the codec's name: an honest
module declared Latin-1 passes (its lines are git's), a utf-7 file whose lines match git's passes
too, and a declaration Python cannot read (an unknown codec, bytes the codec refuses) is reported.
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
    """A Python file of the diff that Python reads as other lines than git's: `encoding` as Python
    reads it (or why it cannot), and the base's (None: the file is new at head)."""

    path: str
    encoding: str
    before: str | None


def declared(source: bytes) -> str:
    """The codec Python reads `source` with (its normalized name: `utf-8`, `utf-7`, `iso8859-1`);
    a declaration Python refuses (unknown codec, a BOM against it) reads as `unreadable: WHY`."""
    try:
        name, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
        return "utf-8" if name == "utf-8-sig" else codecs.lookup(name).name
    except (SyntaxError, LookupError) as exc:
        return f"unreadable: {exc}"


def same_lines(source: bytes, encoding: str) -> bool:
    """True when `source` decoded as `encoding` has git's lines: the text of each line of the bytes
    (its break left off) decodes on its own to text without a line break, and the lines with their
    breaks decode together to the whole."""
    try:
        whole = source.decode(encoding)
        text = []
        for line in source.splitlines(keepends=True):
            body = line.rstrip(b"\r\n")
            piece = body.decode(encoding)
            if "\n" in piece or "\r" in piece:
                return False
            text.append(piece + line[len(body) :].decode("ascii"))
    except (UnicodeDecodeError, LookupError):
        return False
    return "".join(text) == whole


def scan_diff(repo: Path, summary: DiffSummary) -> tuple[EncodingDeclaration, ...]:
    """The diff's added or changed Python files (any role) that Python reads as other lines than
    git's (read at the head commit); a UTF-8 or ASCII file is git's lines by definition."""
    wanted = [f for f in summary.files if f.change is not Change.DELETED and f.path.endswith(".py")]
    git.prefetch_files(repo, ((summary.head_commit, f.path) for f in wanted))
    found = []
    for f in wanted:
        head = git.show_file(repo, summary.head_commit, f.path)
        if head is None:
            continue
        now = declared(head)
        if now in PLAIN or same_lines(head, now):
            continue
        old = None
        if f.change is not Change.ADDED:
            base = git.show_file(repo, summary.merge_base, f.old_path or f.path)
            old = declared(base) if base is not None else None
        found.append(EncodingDeclaration(f.path, now, old))
    return tuple(found)
