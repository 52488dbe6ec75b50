"""lint.json: the LintReport (schema "lint") exactly as `lanegate score --lint FILE` reads it.

Serialized like `lanegate.ledgers.load.dump_bytes` (sorted keys, two-space indent, trailing newline)
without importing the validator: the tests validate this output against the "lint" schema.
"""

from __future__ import annotations

import json

from lanegate.ledgers.codec import to_json
from lanegate.workflow_lint import LintResult


def render(result: LintResult, version: str) -> str:
    data = to_json(result.to_report(version))
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"
