"""Which tests' kills count as property evidence: the diff's new and changed tests that pass the
oracle check, and the merge base's own property tests that the diff left unchanged (Hypothesis tests
and tests calling the oracle module, in test files the diff does not touch), which are trusted
inputs like the rest of the base (SPEC 9). Every other test's kill is a unit-test kill."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lanegate import git
from lanegate.diff import DiffSummary
from lanegate.lanes.collection import Collection
from lanegate.lanes.property import oracle_ast


@dataclass(frozen=True, slots=True)
class TrustedTests:
    """Node ids (parametrized ones included) whose kills count: the diff's, and the base's."""

    new: frozenset[str]
    base: frozenset[str]

    @property
    def all(self) -> frozenset[str]:
        """Every test whose kill counts towards the budget."""
        return self.new | self.base


def _function(node_id: str) -> str:
    return node_id.split("[", 1)[0]


def trusted_tests(
    repo: Path,
    summary: DiffSummary,
    custom: oracle_ast.OracleModule,
    tests: dict[str, dict[str, Any]],
    collection: Collection,
    passed: frozenset[str],
) -> TrustedTests:
    """`tests` is the baseline record; `passed` the oracle check's passing tests (function ids)."""
    new = frozenset(n for n in tests if _function(n) in passed)
    touched = {f.path for f in summary.files} | {f.old_path for f in summary.files if f.old_path}
    base: set[str] = set()
    by_file: dict[str, list[str]] = {}
    for node_id in tests:
        by_file.setdefault(node_id.split("::", 1)[0], []).append(node_id)
    git.prefetch_files(
        repo,
        (
            (commit, path)
            for path in by_file
            if path not in touched
            for commit in (summary.merge_base, summary.head_commit)
        ),
    )
    for path, node_ids in by_file.items():
        if path in touched or git.show_file(repo, summary.merge_base, path) is None:
            continue
        base.update(n for n in node_ids if tests[n].get("settings") is not None)
        raw = git.show_file(repo, summary.head_commit, path)
        if raw is None or b"oracle" not in raw:  # cheap pre-filter: no oracle import, no parse
            continue
        verdict = oracle_ast.check_source(
            path, raw.decode("utf-8", "replace"), custom, None, collection.in_file(path)
        )
        ok = {f"{path}::{name.replace('.', '::')}" for name in verdict.passed}
        base.update(n for n in node_ids if _function(n) in ok)
    return TrustedTests(new, frozenset(base) - new)
