"""SARIF 2.1.0 for code scanning: one run, every rule with metadata and help, one result per finding."""

from __future__ import annotations

import json as _json
from typing import Any

from lanegate.model import Finding, Severity
from lanegate.workflow_lint import LintResult
from lanegate.workflow_lint.registry import RULES
from lanegate.workflow_lint.scope import Scope

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
INFORMATION_URI = "https://github.com/lanegate/lanegate"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


def _rule(index: int) -> dict[str, Any]:
    rule = RULES[index]
    return {
        "id": f"lanegate/{rule.id}",
        "name": rule.id,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": f"{rule.summary}. Fix: {rule.fix}."},
        "help": {
            "text": f"{rule.summary}.\nFix: {rule.fix}.\nSee {rule.help_anchor}",
            "markdown": f"**{rule.id}**: {rule.summary}.\n\nFix: {rule.fix}.\n\nSee [{rule.help_anchor}]({rule.help_anchor}).",
        },
        "helpUri": f"{INFORMATION_URI}/blob/main/{rule.help_anchor}",
        "defaultConfiguration": {"level": "error"},
        "properties": {
            "tags": ["retry", "ci", "lanegate"],
            "precision": "high",
            "problem.severity": "error",
        },
    }


def _result(finding: Finding, exempted: bool, scope: Scope, gate: bool) -> dict[str, Any]:
    index = next(i for i, r in enumerate(RULES) if r.id == finding.rule_id)
    region: dict[str, Any] = {}
    if finding.primary.line is not None:
        region["startLine"] = finding.primary.line
        if finding.primary.column is not None:
            region["startColumn"] = finding.primary.column
    physical: dict[str, Any] = {
        "artifactLocation": {"uri": finding.primary.path, "uriBaseId": "%SRCROOT%"}
    }
    if region:
        physical["region"] = region
    result: dict[str, Any] = {
        "ruleId": f"lanegate/{finding.rule_id}",
        "ruleIndex": index,
        "level": "warning" if gate and scope is Scope.LANE_A else _LEVEL[finding.severity],
        "message": {"text": f"{finding.message} (fix: {finding.fix})"},
        "locations": [{"physicalLocation": physical}],
        # lane-b: in what Lane B runs; diff: added by the change; lane-a: the rest (reported only)
        "properties": {"scope": str(scope)},
    }
    if exempted:
        result["suppressions"] = [
            {"kind": "external", "justification": "lane-a exemption in the lanegate policy"}
        ]
    return result


def document(result: LintResult, version: str) -> dict[str, Any]:
    """The SARIF log as a JSON-ready dict."""
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "lanegate",
                        "version": version,
                        "semanticVersion": version,
                        "informationUri": INFORMATION_URI,
                        "rules": [_rule(i) for i in range(len(RULES))],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the linted root"}}},
                "results": [
                    _result(f, False, result.scope_of(f), result.gate) for f in result.findings
                ]
                + [_result(f, True, result.scope_of(f), result.gate) for f in result.exempted],
                "columnKind": "unicodeCodePoints",
                "properties": {
                    "mode": result.mode,
                    "gate": result.gate,
                    "filesScanned": result.files_scanned,
                },
            }
        ],
    }


def render(result: LintResult, version: str) -> str:
    return (
        _json.dumps(document(result, version), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    )
