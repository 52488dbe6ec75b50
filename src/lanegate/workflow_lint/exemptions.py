"""Lane A budget entries (`[lint] exemptions` in the policy): which findings they exempt, and which
entries have expired (an expired entry is itself a finding). Lane B honours none of them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from lanegate.model import Finding, Location, Severity
from lanegate.policy import LintExemption


@dataclass(frozen=True, slots=True)
class Applied:
    """Findings split into those that still count and those an unexpired entry exempts."""

    counted: tuple[Finding, ...]
    exempted: tuple[Finding, ...]
    expired: tuple[Finding, ...]


def covers(entry: LintExemption, finding: Finding) -> bool:
    """An entry covers a finding of its rule on its target: the file itself, or a test id in it."""
    if entry.rule != finding.rule_id:
        return False
    target = entry.target.strip().removeprefix("./")
    if target == finding.primary.path:
        return True
    return any(isinstance(part, str) and part == target for part in finding.primary.route)


def apply(
    findings: Sequence[Finding], entries: Sequence[LintExemption], *, today: date, policy_path: str
) -> Applied:
    """Exempt findings covered by an unexpired entry; report every expired entry as a finding.

    An entry expires at the end of its `expires` day (UTC): `expires < today` is expired.
    """
    live = [e for e in entries if e.expires >= today]
    expired = tuple(
        Finding(
            rule_id="expired-exemption",
            message=f"exemption of {e.rule} on {e.target} expired on {e.expires.isoformat()} ({e.reason})",
            severity=Severity.ERROR,
            primary=Location(policy_path),
            fix="renew the exemption with a new expiry and reason, or remove the retry construct and the exemption",
        )
        for e in entries
        if e.expires < today
    )
    counted: list[Finding] = []
    exempted: list[Finding] = []
    for finding in findings:
        (exempted if any(covers(e, finding) for e in live) else counted).append(finding)
    return Applied(tuple(counted), tuple(exempted), expired)
