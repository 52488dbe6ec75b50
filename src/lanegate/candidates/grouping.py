"""Which candidates make the same change: one key per candidate, equal keys grouped.

The key is computed by one function, `group_key`, from what a candidate changes outside its tests:
each such Python file as the syntax tree it parses to at head (`ast.dump`: whitespace, comments and
layout do not count, and a file whose tree is the base's is no change), every other changed file
by its bytes, a deleted file as deleted. Two
candidates whose tests differ but whose code is the same change share a key. When behaviour evidence
is available (the differences a head's tests find against the base's), it is passed as `behaviour`
and folded into the key. Survivors whose code differs but that answer alike are joined afterwards
(`behaviour_groups`).
"""

from __future__ import annotations

import ast
import hashlib
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lanegate import git
from lanegate.diff import Change, DiffSummary, Role


@dataclass(frozen=True, slots=True)
class ChangedSource:
    """One changed file outside the tests, normalized: its path and what it became."""

    path: str
    normalized: str


def _normalized(path: str, data: bytes | None) -> str:
    if data is None:
        return "deleted"
    if path.endswith(".py"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarning of an odd escape: not ours
                return "ast:" + ast.dump(ast.parse(data, filename=path))
        except (SyntaxError, ValueError):
            pass  # not Python that parses: compared by its bytes
    return "bytes:" + hashlib.sha256(data).hexdigest()


def changed_sources(repo: Path, summary: DiffSummary) -> tuple[ChangedSource, ...]:
    """The diff's files that are not tests, each normalized (see the module docstring)."""
    found = []
    for changed in summary.files:
        if Role.TEST in changed.roles:
            continue
        data = (
            None
            if changed.change is Change.DELETED
            else git.show_file(repo, summary.head_commit, changed.path)
        )
        normalized = _normalized(changed.path, data)
        if changed.change is Change.MODIFIED and normalized.startswith("ast:"):
            before = git.show_file(repo, summary.merge_base, changed.path)
            if _normalized(changed.path, before) == normalized:
                continue  # comments and layout only: no change to what the file does
        found.append(ChangedSource(changed.path, normalized))
        if changed.old_path is not None:  # a rename removes the old path
            found.append(ChangedSource(changed.old_path, "deleted"))
    return tuple(sorted(found, key=lambda s: s.path))


def group_key(sources: Sequence[ChangedSource], behaviour: str | None = None) -> str:
    """`sha256:<hex>` naming the change; equal for candidates that make the same change."""
    digest = hashlib.sha256()
    for source in sorted(sources, key=lambda s: s.path):
        digest.update(f"{source.path}\0{source.normalized}\0".encode("utf-8", "surrogatepass"))
    if behaviour is not None:
        digest.update(f"behaviour\0{behaviour}\0".encode())
    return "sha256:" + digest.hexdigest()
