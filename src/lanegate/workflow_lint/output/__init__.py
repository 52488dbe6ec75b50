"""Output formats of `lanegate lint`: each renders one LintResult to a string and never prints."""

from __future__ import annotations

from collections.abc import Callable

from lanegate.workflow_lint import LintResult
from lanegate.workflow_lint.output import github, json, sarif, text

Renderer = Callable[[LintResult, str], str]

FORMATS: dict[str, Renderer] = {
    "text": text.render,
    "json": json.render,
    "sarif": sarif.render,
    "github": github.render,
}
