"""Small helpers for lint tests: write a tiny repository and lint it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from lanegate.workflow_lint import LintResult, lint_paths

TODAY = date(2026, 6, 1)


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def lint_tree(root: Path, files: dict[str, str | bytes], **kwargs: object) -> LintResult:
    write_tree(root, files)
    return lint_paths([root], today=TODAY, **kwargs)  # type: ignore[arg-type]


def rendered(result: LintResult) -> list[str]:
    return [f"{f.primary.render()} {f.rule_id}" for f in result.findings]
