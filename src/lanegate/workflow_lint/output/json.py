"""lint.json: the LintReport (schema "lint") exactly as `lanegate score --lint FILE` reads it."""

from __future__ import annotations

from lanegate.workflow_lint import LintResult


def render(result: LintResult, version: str) -> str:
    from lanegate.ledgers.load import (
        dump_bytes,
    )  # jsonschema is imported only when JSON is asked for

    return dump_bytes(result.to_report(version)).decode("utf-8")
